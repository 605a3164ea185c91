import type { Schema } from '../../api/index.js';

type StoredDraft = Schema<'AgentDraft'>;
/** A capability selection (built-in groups, tools, skills, MCP servers, remote agents), every list present. */
export type Capabilities = Required<Schema<'Capabilities'>>;
/** Inline prompt text or a shared prompt resource. */
export type PromptSource = Schema<'PromptSource'>;
/** One executor role of a Plan–Executor agent. */
export type ExecutorRole = Omit<StoredDraft['executors'][number], 'capabilities'> & { capabilities: Capabilities };
/** An agent draft as the editor holds it: the platform's `AgentDraft` with every default filled in. */
export type AgentDraft = Omit<StoredDraft, 'capabilities' | 'planner' | 'executors'> & {
  capabilities: Capabilities;
  planner?: { prompt: PromptSource; capabilities: Capabilities };
  executors: ExecutorRole[];
};

/** An empty capability selection. */
export function noCapabilities(): Capabilities {
  return { builtIn: [], tools: [], skills: [], mcpServers: [], remoteAgents: [] };
}

/** Fills in what a stored draft may leave out, so the editor can read every group without checks. */
export function normaliseDraft(config: Record<string, unknown>): AgentDraft {
  const draft = config as Partial<StoredDraft>;
  const capabilitiesOf = (selection: Schema<'Capabilities'> | undefined): Capabilities => ({ ...noCapabilities(), ...selection });
  return {
    ...draft,
    variables: draft.variables ?? {},
    capabilities: capabilitiesOf(draft.capabilities),
    planner: draft.planner
      ? { prompt: draft.planner.prompt, capabilities: capabilitiesOf(draft.planner.capabilities) }
      : undefined,
    executors: (draft.executors ?? []).map((role) => ({ ...role, capabilities: capabilitiesOf(role.capabilities) })),
    hooks: draft.hooks ?? [],
    execution: draft.execution ?? {},
    context: draft.context ?? {},
    environment: draft.environment ?? { persistentSandbox: false },
  };
}

/**
 * A number field's value: empty means "use the platform default" (the field is left out of the
 * draft); anything else is sent as typed, so the server's range checks explain a bad value.
 */
export function numberOrUndefined(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

/**
 * The problems the editor shows next to fields, keyed by draft path (`execution.maxLoops`,
 * `executors.0.name`): from a refused save (`config.`-prefixed paths) and from validation.
 */
export function issueIndex(issues: readonly { path: string; message: string }[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const issue of issues) {
    const path = issue.path.replace(/^config\./, '');
    if (!index.has(path)) index.set(path, issue.message);
  }
  return index;
}

/** The platform defaults (P-4.7) shown next to the fields they apply to. */
export const platformDefaults = {
  historyRuns: 2,
  compressionThreshold: 0.8,
  maxLoops: 100,
  timeoutMs: 3_600_000,
  parallel: false,
  maxParallelExecutors: 2,
  retryEnabled: false,
  retryAttempts: 2,
  retryWaitMs: 2_000,
  toolTimeoutMs: 10_000,
} as const;
