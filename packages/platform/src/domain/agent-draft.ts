import { z } from '@hono/zod-openapi';

/** The draft format version; a release records it so that old snapshots stay readable. */
export const agentDraftSchemaVersion = 1;

/** Built-in capability groups an agent may switch on (see `GET /built-in-tools`). */
export const builtInCapabilities = ['workspace-files', 'run_command'] as const;

const resourceId = z.string().min(1).max(100);
const promptSource = z
  .union([z.strictObject({ text: z.string().min(1).max(100_000) }), z.strictObject({ resourceId })])
  .openapi('PromptSource', {
    description: 'Inline text, or a shared prompt resource (its newest version is pinned at publish).',
  });
const capabilities = z
  .strictObject({
    builtIn: z.array(z.enum(builtInCapabilities)).max(10).default([]),
    tools: z.array(resourceId).max(100).default([]),
    skills: z.array(resourceId).max(100).default([]),
    mcpServers: z.array(resourceId).max(50).default([]),
    remoteAgents: z
      .array(resourceId)
      .max(20)
      .default([])
      .openapi({ description: 'Remote A2A agent resources the role may delegate to, each a tool named like its resource.' }),
  })
  .openapi('Capabilities');
/** An empty capability selection (the default of every role), a new one each time. */
const noCapabilities = () => ({ builtIn: [], tools: [], skills: [], mcpServers: [], remoteAgents: [] });
const executor = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  description: z.string().min(1).max(2000),
  prompt: promptSource,
  capabilities: capabilities.default(noCapabilities),
  /** Its tasks run in the background (N-7, ADR 0033): the planner goes on, the result arrives later. */
  background: z.boolean().optional().openapi({
    description: 'Runs its tasks in the background: the planner goes on at once, the result arrives as a later input.',
  }),
});

/**
 * Code-orchestrated tool calls (N-15, ADR 0032): each role gets `run_script`, a script calling its
 * tools in a bubblewrap sandbox; off unless `enabled`. The limits are the SDK's; empty means its default.
 */
const codeOrchestration = z
  .strictObject({
    enabled: z.boolean(),
    maxToolCalls: z.number().int().min(1).max(1000).optional(),
    maxOutputBytes: z.number().int().min(1024).max(16_777_216).optional(),
    maxMemoryMegabytes: z.number().int().min(16).max(1024).optional(),
  })
  .openapi('CodeOrchestration', {
    description:
      "The model may write a script that calls the role's tools (each call journaled like a direct one); it runs in a bubblewrap sandbox, so only isolating workers take the agent's runs.",
  });

const permissionDecision = z.enum(['allow', 'ask', 'deny']);
const permissionRule = z
  .strictObject({
    tool: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9_.*?-]+$/, 'A tool name, or a pattern with * and ?, made of letters, digits, _ . -'),
    arguments: z.record(z.string().regex(/^[A-Za-z0-9_]{1,64}$/), z.string().min(1).max(1000)).optional(),
    decision: permissionDecision,
    reason: z.string().max(500).optional(),
  })
  .openapi('PermissionRule', {
    description:
      'A rule matches a call by its tool pattern (and argument patterns); of the rules that match, deny beats ask beats allow.',
  });
/** Deny / ask / allow rules for the agent's tool calls; executors are bound by them too. */
const permissions = z
  .strictObject({
    rules: z.array(permissionRule).max(100).default([]),
    default: permissionDecision.default('allow'),
  })
  .openapi('Permissions');

const featureName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'Letters, digits, _ . - only, 1 to 64 characters');
/** A context entry (N-15): text added at the end of the context when its trigger applies. */
const contextEntry = z
  .strictObject({
    id: featureName,
    content: z.string().min(1).max(20_000),
    constant: z.boolean().optional(),
    keywords: z.array(z.string().min(1).max(200)).max(50).optional(),
    pattern: z.string().min(1).max(500).optional(),
    scanMessages: z.number().int().min(1).max(100).optional(),
  })
  .openapi('ContextEntry', {
    description:
      'Added at the end of the context: always (constant), or when a keyword or the pattern occurs in the last scanMessages messages.',
  });
const shapingMode = z.enum(['none', 'merge', 'strict']);
/** A user command (N-15): `/name …` typed as a run's input expands to `prompt`. */
const userCommand = z
  .strictObject({ name: featureName, description: z.string().max(500).optional(), prompt: z.string().min(1).max(20_000) })
  .openapi('UserCommand', { description: 'Typed as /name at the start of a run input; {{args}} takes the rest.' });
const modelChoice = z.strictObject({ connectionId: resourceId, modelId: z.string().min(1).max(200) });

/**
 * What an agent's draft holds (P-4.2): every field optional while editing, so a half-built agent
 * can be saved; `validate` and publish report what is missing. Unknown fields are refused.
 * Executors and compression have no model of their own (P-4.6, NOT-10).
 */
export const agentDraftSchema = z
  .strictObject({
    model: z
      .strictObject({
        connectionId: resourceId,
        modelId: z.string().min(1).max(200),
        thinking: z.strictObject({ enabled: z.boolean(), effort: z.enum(['low', 'medium', 'high']).optional() }).optional(),
        maxOutputTokens: z.number().int().positive().max(1_000_000).optional(),
        /** Models tried in order when the model fails for good in a way another may not (N-15). */
        fallbacks: z.array(modelChoice).max(4).optional(),
      })
      .optional(),
    prompt: promptSource.optional(),
    variables: z.record(z.string().regex(/^[A-Za-z0-9_]{1,64}$/), z.string().max(10_000)).default({}),
    capabilities: capabilities.default(noCapabilities),
    planner: z
      .strictObject({
        prompt: promptSource,
        capabilities: capabilities.default(noCapabilities),
      })
      .optional(),
    executors: z.array(executor).max(20).default([]),
    hooks: z.array(resourceId).max(100).default([]),
    execution: z
      .strictObject({
        maxLoops: z.number().int().min(1).max(10_000).optional(),
        timeoutMs: z
          .number()
          .int()
          .min(1000)
          .max(7 * 24 * 3_600_000)
          .optional(),
        parallel: z.boolean().optional(),
        maxParallelExecutors: z.number().int().min(1).max(32).optional(),
        retry: z
          .strictObject({
            enabled: z.boolean().optional(),
            attempts: z.number().int().min(1).max(10).optional(),
            waitMs: z.number().int().min(0).max(600_000).optional(),
          })
          .optional(),
        toolTimeoutMs: z.number().int().positive().max(3_600_000).optional(),
        codeOrchestration: codeOrchestration.optional(),
      })
      .default({}),
    context: z
      .strictObject({
        historyRuns: z.number().int().min(0).max(100).optional(),
        compressionThreshold: z.number().gt(0).max(1).optional(),
        compressionPrompt: z.string().max(20_000).optional(),
        /** The context features (N-15), in the SDK definition's own shape. */
        userInstructions: z.string().max(20_000).optional(),
        entries: z.array(contextEntry).max(200).optional(),
        entryBudgetTokens: z.number().int().positive().max(1_000_000).optional(),
        messageShaping: z.union([shapingMode, z.record(z.string().min(1).max(64), shapingMode)]).optional(),
        commands: z.array(userCommand).max(100).optional(),
      })
      .default({}),
    /** Facts kept across sessions, per agent and per user (N-15); off unless enabled. */
    memory: z
      .strictObject({
        enabled: z.boolean(),
        budgetCharacters: z.number().int().positive().max(100_000).optional(),
      })
      .optional(),
    permissions: permissions.optional(),
    environment: z.strictObject({ persistentSandbox: z.boolean().default(false) }).default({ persistentSandbox: false }),
  })
  .openapi('AgentDraft');

/** An agent draft as stored (defaults filled in). */
export type AgentDraft = z.output<typeof agentDraftSchema>;
/** A prompt source of a draft. */
export type PromptSource = z.output<typeof promptSource>;
/** The permission rules of a draft. */
export type DraftPermissions = z.output<typeof permissions>;
/** The code orchestration switch of a draft. */
export type DraftCodeOrchestration = z.output<typeof codeOrchestration>;
/** A capability selection of a draft. */
export type CapabilitySelection = z.output<typeof capabilities>;

/** The empty draft a new agent starts with. */
export function emptyAgentDraft(): AgentDraft {
  return agentDraftSchema.parse({});
}

/** Every resource id a draft references, by the type it must have. */
export function referencedResources(
  draft: AgentDraft,
): { path: string; resourceId: string; type: 'prompt' | 'tool' | 'skill' | 'mcp-server' | 'hook' | 'remote-agent' }[] {
  const found: {
    path: string;
    resourceId: string;
    type: 'prompt' | 'tool' | 'skill' | 'mcp-server' | 'hook' | 'remote-agent';
  }[] = [];
  const addPrompt = (path: string, prompt: PromptSource | undefined) => {
    if (prompt && 'resourceId' in prompt) found.push({ path, resourceId: prompt.resourceId, type: 'prompt' });
  };
  const addCapabilities = (path: string, selection: CapabilitySelection) => {
    for (const [index, id] of selection.tools.entries())
      found.push({ path: `${path}.tools.${index}`, resourceId: id, type: 'tool' });
    for (const [index, id] of selection.skills.entries())
      found.push({ path: `${path}.skills.${index}`, resourceId: id, type: 'skill' });
    for (const [index, id] of selection.mcpServers.entries()) {
      found.push({ path: `${path}.mcpServers.${index}`, resourceId: id, type: 'mcp-server' });
    }
    for (const [index, id] of selection.remoteAgents.entries())
      found.push({ path: `${path}.remoteAgents.${index}`, resourceId: id, type: 'remote-agent' });
  };
  addPrompt('prompt', draft.prompt);
  addCapabilities('capabilities', draft.capabilities);
  if (draft.planner) {
    addPrompt('planner.prompt', draft.planner.prompt);
    addCapabilities('planner.capabilities', draft.planner.capabilities);
  }
  draft.executors.forEach((role, index) => {
    addPrompt(`executors.${index}.prompt`, role.prompt);
    addCapabilities(`executors.${index}.capabilities`, role.capabilities);
  });
  for (const [index, id] of draft.hooks.entries()) found.push({ path: `hooks.${index}`, resourceId: id, type: 'hook' });
  return found;
}
