export { type JsonSchemaToolOptions, jsonSchemaTool } from './json-schema-tool.js';
export { isRemoteExecutor, type RemoteExecutor } from './remote-executor.js';
export {
  type CallJournal,
  isTool,
  type Tool,
  type ToolExecutionContext,
  type ToolOptions,
  tool,
  toToolDefinition,
} from './tool.js';
