import { z } from '@hono/zod-openapi';
import type { AgentDraft, DraftPermissions } from './agent-draft.js';
import { type ConnectionSettings, type Provider, providers } from './connection-settings.js';
import type { PinnedTeam } from './workflow-team.js';

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
  /**
   * Remote A2A agent resources the role may delegate to (N-13), each a tool under its resource
   * name; the card is read on the first call. Snapshots older than remote agents have none.
   */
  remoteAgents?: readonly (PinnedResource & { name: string })[];
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
    /**
     * The model's context window in tokens, from the connection's catalogue at publish; absent
     * when the catalogue does not say (and in older snapshots). It is what lets a run compress its
     * context (C-2) and checkpoint its session, so a long session's reads stay bounded (issue 34).
     */
    contextWindow?: number;
    /** The key is resolved from the connection's active key at every construction (D-P3). */
    credential: { connectionId: string };
    /** The fallback chain (N-15), each pinned like the model; absent when none (and in older snapshots). */
    fallbacks?: readonly FallbackModelSnapshot[];
  };
  /** Facts kept across sessions (N-15); absent when off (and in older snapshots). */
  memory?: { enabled: boolean; budgetCharacters?: number };
  entry: RoleSnapshot;
  /** `background`: its tasks run beside the planner (N-7); absent when off (and in older snapshots). */
  executors: readonly (RoleSnapshot & { name: string; description: string; background?: boolean })[];
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

/** One model of a release's fallback chain: its connection as published and the model id (N-15). */
export interface FallbackModelSnapshot {
  connectionId: string;
  provider: Provider;
  baseUrl: string | null;
  settings: ConnectionSettings;
  modelId: string;
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
  /** Remote agent binding names → their resource version; capability nodes name them in `tool` (absent in older snapshots). */
  remoteAgents?: Readonly<Record<string, PinnedResource>>;
  /** Team binding names → the team, each member pinned to an agent release (N-12; absent in older snapshots). */
  teams?: Readonly<Record<string, PinnedTeam>>;
  /** Publishing a workflow never interrupts its runs in progress: they finish on their release (D-P2). */
  interruptsRunsInProgress: false;
}

const pinnedResourceSchema = z.looseObject({ resourceId: z.string(), version: z.number().int().positive() });
const namedPinSchema = pinnedResourceSchema.extend({ name: z.string() });
const roleSnapshotSchema = z.looseObject({
  prompt: z.union([z.looseObject({ text: z.string() }), pinnedResourceSchema]),
  builtIn: z.array(z.enum(['workspace-files', 'run_command'])),
  tools: z.array(namedPinSchema),
  skills: z.array(namedPinSchema.extend({ storageRef: z.string() })),
  mcpServers: z.array(namedPinSchema).optional(),
  remoteAgents: z.array(namedPinSchema).optional(),
});
/**
 * Parts a snapshot copies as they were validated at publish (their schema is the draft's or the
 * connection's, which may grow): read as records, typed as the snapshot declares them.
 */
const draftPartSchema = z.record(z.string(), z.unknown());

/** The stored form of an agent release snapshot, checked when a worker or a publish reads it back. */
const agentReleaseSnapshotSchema = z.looseObject({
  schemaVersion: z.literal(1),
  kind: z.literal('agent'),
  mode: z.enum(['react', 'plan-executor']),
  name: z.string(),
  description: z.string(),
  model: z.looseObject({
    connectionId: z.string(),
    provider: z.enum(providers),
    baseUrl: z.string().nullable(),
    settings: draftPartSchema,
    modelId: z.string(),
    thinking: z.looseObject({ enabled: z.boolean(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    contextWindow: z.number().int().positive().optional(),
    credential: z.looseObject({ connectionId: z.string() }),
    fallbacks: z
      .array(
        z.looseObject({
          connectionId: z.string(),
          provider: z.enum(providers),
          baseUrl: z.string().nullable(),
          settings: draftPartSchema,
          modelId: z.string(),
        }),
      )
      .optional(),
  }),
  memory: z.looseObject({ enabled: z.boolean(), budgetCharacters: z.number().int().positive().optional() }).optional(),
  entry: roleSnapshotSchema,
  executors: z.array(
    roleSnapshotSchema.extend({ name: z.string(), description: z.string(), background: z.boolean().optional() }),
  ),
  variables: z.record(z.string(), z.string()),
  execution: draftPartSchema,
  context: draftPartSchema,
  environment: draftPartSchema,
  hooks: z.array(namedPinSchema).optional(),
  permissions: draftPartSchema.optional(),
  interruptsRunsInProgress: z.literal(true),
});

/** The stored form of a workflow release snapshot. */
const workflowReleaseSnapshotSchema = z.looseObject({
  schemaVersion: z.literal(1),
  kind: z.literal('workflow'),
  name: z.string(),
  description: z.string(),
  definition: z.record(z.string(), z.unknown()),
  agents: z.record(z.string(), z.looseObject({ appId: z.string(), releaseId: z.string(), version: z.number().int().positive() })),
  tools: z.record(z.string(), pinnedResourceSchema),
  mcpServers: z.record(z.string(), pinnedResourceSchema).optional(),
  remoteAgents: z.record(z.string(), pinnedResourceSchema).optional(),
  teams: z
    .record(
      z.string(),
      z.looseObject({
        topology: draftPartSchema,
        members: z.array(
          z.looseObject({ name: z.string(), appId: z.string(), releaseId: z.string(), version: z.number().int().positive() }),
        ),
      }),
    )
    .optional(),
  interruptsRunsInProgress: z.literal(false),
});

/**
 * The schema of every stored release snapshot (`app_releases.config_snapshot`), by `kind`. A
 * snapshot is immutable once published, so this accepts every snapshot ever written: the fields
 * added later (`mcpServers`, `hooks`, `permissions`) are optional, unknown fields are kept.
 */
export const releaseSnapshotSchema = z.discriminatedUnion('kind', [agentReleaseSnapshotSchema, workflowReleaseSnapshotSchema]);

/** A stored snapshot that does not match its schema: the row was written by something else, or damaged. */
export class ReleaseSnapshotInvalidError extends Error {
  constructor(readonly issues: readonly { path: string; message: string }[]) {
    super(`The stored release snapshot is invalid: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
    this.name = 'ReleaseSnapshotInvalidError';
  }
}

/**
 * Reads a stored release snapshot (JSON text) through its schema: the typed snapshot, or
 * `ReleaseSnapshotInvalidError` naming every issue. The draft parts it copies (`execution`,
 * `context`, `environment`, `permissions`) were validated against the draft's schema at publish
 * and are typed as the draft declares them.
 */
export function parseReleaseSnapshot(text: string): AgentReleaseSnapshot | WorkflowReleaseSnapshot {
  const parsed = releaseSnapshotSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new ReleaseSnapshotInvalidError(
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  return parsed.data as unknown as AgentReleaseSnapshot | WorkflowReleaseSnapshot;
}
