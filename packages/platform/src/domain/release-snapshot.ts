import type { ConnectionSettings, Provider } from '../models/index.js';
import type { AgentDraft, DraftPermissions } from './agent-draft.js';

/** A pinned resource version: the release references it, never copies it (P-4.5). */
export interface PinnedResource {
  resourceId: string;
  version: number;
}

/** One role of a release: its prompt and capabilities with every version pinned. */
export interface RoleSnapshot {
  prompt: { text: string } | PinnedResource;
  builtIn: readonly ('workspace-files' | 'run_command')[];
  tools: readonly (PinnedResource & { name: string })[];
  skills: readonly (PinnedResource & { name: string; storageRef: string })[];
  /**
   * MCP server resources whose tools the role gets, each under the server name the agent knows
   * it by (the model sees `<name>__<tool>`); connected at run start, closed after. Snapshots
   * older than MCP support have none.
   */
  mcpServers?: readonly (PinnedResource & { name: string })[];
}

/**
 * The immutable configuration a release saves for every later run and recovery (P-1.3, P-6.2):
 * fully resolved, resource versions pinned, the model connection's non-secret settings frozen
 * and its credential held by reference only (D-P3). Nothing in here is a secret.
 */
export interface AgentReleaseSnapshot {
  schemaVersion: 1;
  kind: 'agent';
  mode: 'react' | 'plan-executor';
  name: string;
  description: string;
  model: {
    connectionId: string;
    provider: Provider;
    baseUrl: string | null;
    settings: ConnectionSettings;
    modelId: string;
    thinking?: { enabled: boolean; effort?: 'low' | 'medium' | 'high' };
    maxOutputTokens?: number;
    /** The key is resolved from the connection's active key at every construction (D-P3). */
    credential: { connectionId: string };
  };
  entry: RoleSnapshot;
  executors: readonly (RoleSnapshot & { name: string; description: string })[];
  variables: Readonly<Record<string, string>>;
  execution: AgentDraft['execution'];
  context: AgentDraft['context'];
  environment: AgentDraft['environment'];
  /**
   * The agent's hook resources (P-4.11: one hook config per agent, by trigger point), each pinned
   * to a version and named uniquely for the journal; the trigger, URL and headers are read from
   * the pinned version at construction. Absent when the agent has none (and in older snapshots).
   */
  hooks?: readonly (PinnedResource & { name: string })[];
  /** Deny / ask / allow rules for tool calls (absent: every call allowed); snapshots older than them have none. */
  permissions?: DraftPermissions;
  /** Publishing this release interrupts the agent's session runs in progress (P-6.3). */
  interruptsRunsInProgress: true;
}

/** An agent app a workflow release calls, pinned to one of its releases (P-6.9). */
export interface PinnedAgentRelease {
  appId: string;
  releaseId: string;
  version: number;
}

/**
 * The immutable configuration of a workflow release (P-6.7, P-6.9, ADR 0013): the SDK workflow
 * definition as published (no inline agents, no canvas layout), every agent name pinned to one
 * release of a published agent app, every tool to a resource version. Runs build the workflow
 * from this alone, so a later draft edit or agent publish changes nothing in them (NOT-8, D-P2).
 */
export interface WorkflowReleaseSnapshot {
  schemaVersion: 1;
  kind: 'workflow';
  name: string;
  description: string;
  definition: Record<string, unknown>;
  agents: Readonly<Record<string, PinnedAgentRelease>>;
  tools: Readonly<Record<string, PinnedResource>>;
  /** MCP server binding names → their resource version; MCP tool nodes name them in `server` (absent in older snapshots). */
  mcpServers?: Readonly<Record<string, PinnedResource>>;
  /** Publishing a workflow never interrupts its runs in progress: they finish on their release (D-P2). */
  interruptsRunsInProgress: false;
}
