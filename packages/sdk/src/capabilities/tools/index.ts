export { isTool, type Tool, type ToolExecutionContext, type ToolOptions, tool, toToolDefinition } from './tool.js';
