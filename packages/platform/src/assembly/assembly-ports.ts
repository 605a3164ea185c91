import type { BubblewrapSandboxOptions, FactStore, RunStore } from '@agentloom/sdk';
import type { McpAuthorization } from '@agentloom/sdk/capabilities/mcp';
import type { McpConnectionSet, McpOAuthSettings, McpSandboxPort } from './mcp-servers.js';

/** What assembly reads from the platform, as functions so that assembly itself does no SQL. */
export interface AssemblyPorts {
  /** The content of a pinned, immutable resource version. */
  readResourceVersion(resourceId: string, version: number): Promise<{ content: unknown; storageRef: string | null }>;
  /** The decrypted active key of a connection, or undefined (resolved now, D-P3). */
  readActiveKey(connectionId: string): Promise<string | undefined>;
  /** The decrypted value of a space secret named in a tool's headers. */
  readSecret(name: string): Promise<string | undefined>;
  /**
   * The SDK authorization of an MCP server resource that needs an OAuth sign-in: its space's
   * sealed sign-in as the token store (refreshed by whichever worker finds the token expired);
   * throws `McpSignInRequiredError` when nobody connected it. Absent: such servers cannot connect.
   */
  mcpAuthorization?(resourceId: string, oauth: McpOAuthSettings): Promise<McpAuthorization>;
  /** `<dataDirectory>/resources`, where skill packages are stored by content hash. */
  resourcesDirectory: string;
  /** The app's file root (P-12.2), an absolute directory. */
  fileRoot: string;
  /** Where runs are kept; the SDK default (memory) when omitted. */
  store?: RunStore;
  /** Where agents with memory keep their facts (N-15); agents with memory do not build without it. */
  factStore?: FactStore;
  /** The outbound module's `fetch` (P-15.1): every model, tool, hook and MCP request goes through it. */
  fetch: typeof globalThis.fetch;
  /**
   * Where a run's MCP connections are opened (connected while building, closed by the caller
   * when the run ends). Absent, MCP servers are not connected and their tools left out: the
   * publish dry run starts nothing (P-1.8).
   */
  mcpConnections?: McpConnectionSet;
  /** This host's bubblewrap, for commands and scripts (NOT-18); default `bwrap` on the `PATH`. */
  bubblewrap?: BubblewrapSandboxOptions;
  /**
   * The run's sandbox, given by a worker that can isolate (ADR 0035): the run's stdio MCP servers
   * start inside it, seeing only the run's view (its work directory at `/work`, the agent's files
   * read-only at `/mounts/…`), system programs and `readOnlyPaths`, with no network. Absent, they
   * start as host processes.
   */
  mcpSandbox?: McpSandboxPort;
  /** The SDK lease of the agent's runs (how long a dead worker's run waits before a takeover). */
  leaseMs?: number;
}

/** Thrown when a snapshot cannot become an SDK agent; `issues` lists every reason. */
export class AssemblyError extends Error {
  readonly code = 'assembly-failed';
  constructor(readonly issues: readonly { path: string; message: string }[]) {
    super(`The release cannot be built into an agent: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
    this.name = 'AssemblyError';
  }
}
