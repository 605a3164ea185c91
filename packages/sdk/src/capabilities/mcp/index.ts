/**
 * @module @agentloom/sdk/capabilities/mcp
 * The MCP client (N-8): needs the optional peer dependency `@modelcontextprotocol/sdk`.
 */
export {
  approvalRequestId,
  createDenyingMcpApprovalPort,
  type McpApprovalDecision,
  type McpApprovalPort,
  type McpApprovalRequest,
} from './approval-port.js';
export { completeMcpAuthorization } from './complete-mcp-authorization.js';
export { connectMcpServer, type McpServerConnection, type McpServerOptions } from './connect-mcp-server.js';
export {
  type McpAuthorization,
  type McpAuthorizationCallback,
  type McpAuthorizationCodeGrant,
  type McpAuthorizationRecord,
  type McpAuthorizationRedirect,
  type McpAuthorizationRedirectRequest,
  type McpClientCredentialsGrant,
  type McpOAuthClientInformation,
  type McpOAuthDiscovery,
  type McpOAuthTokens,
  type McpTokenStore,
  MemoryMcpTokenStore,
} from './mcp-authorization.js';
export {
  McpAuthorizationDiscoveryError,
  type McpAuthorizationRefusal,
  McpAuthorizationRefusedError,
  McpAuthorizationRequiredError,
} from './mcp-authorization-errors.js';
export type { McpServerTransport, StdioServer, StreamableHttpServer } from './mcp-connection.js';
export { resultToText } from './mcp-content.js';
export { McpConnectionError, McpRequestError, McpToolError } from './mcp-errors.js';
export {
  FileMcpTaskLedger,
  type McpTaskAction,
  type McpTaskLedger,
  type McpTaskRecord,
  MemoryMcpTaskLedger,
} from './mcp-task-ledger.js';
export { type McpCallScope, type McpToolDefinition, modelToolName } from './mcp-tools.js';
