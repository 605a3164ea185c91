export { type JsonSchemaToolOptions, jsonSchemaTool } from './json-schema-tool.js';
export { isTool, type Tool, type ToolExecutionContext, type ToolOptions, tool, toToolDefinition } from './tool.js';
