import { z } from 'zod';
import {
  type CodeOrchestrationOptions,
  createScriptTool,
  type ResolvedCodeOrchestration,
  resolveCodeOrchestration,
} from '../../capabilities/code-orchestration/index.js';
import { createMemoryTools, type MemoryOptions } from '../../capabilities/memory/index.js';
import type { SkillCatalog } from '../../capabilities/skills/load-skills.js';
import { isRemoteExecutor, type RemoteExecutor } from '../../capabilities/tools/remote-executor.js';
import { isTool, type Tool } from '../../capabilities/tools/tool.js';
import { type ConfigurationIssue, InvalidConfigurationError } from '../../core/errors/index.js';
import type { Failure } from '../../core/failure.js';
import { zodSchemaProblem } from '../../core/zod-schema-check.js';
import type { ApprovalPort } from '../../hooks/approval.js';
import type { EventBus } from '../../hooks/event-bus.js';
import type { Guardrails } from '../../hooks/guardrails.js';
import { type HookMap, hookTriggers } from '../../hooks/hook-types.js';
import type { PermissionPolicy } from '../../hooks/permission-policy.js';
import { permissionPolicySchema } from '../../hooks/permission-policy.js';
import type { LanguageModel, ModelSettings } from '../../model/language-model.js';
import type { Workspace } from '../../sandbox/workspace.js';
import type { RunStore } from '../../store/run-store.js';
import type { TracingOptions } from '../../telemetry/agent-tracing.js';
import type {
  AgentConfig,
  ExecutorConfig,
  PlanExecutorAgentConfig,
  PlannerConfig,
  ReactAgentConfig,
  ResolvedAgentConfig,
  ResolvedRole,
} from './agent-config-types.js';
import { contextOptionsSchema } from './context-options.js';
import { executionOptionsSchema } from './execution-options.js';
import type { RunEvent } from './run-events.js';

export type {
  AgentConfig,
  ExecutorConfig,
  PlanExecutorAgentConfig,
  PlannerConfig,
  ReactAgentConfig,
  ResolvedAgentConfig,
  ResolvedRole,
};

const storeMethods = [
  'acquire',
  'renewLease',
  'append',
  'appendExternal',
  'releaseLease',
  'getRun',
  'readJournal',
  'listSessionRuns',
  'readSession',
  'close',
];
const zodSchema = z.custom<z.ZodType>().superRefine((value, context) => {
  const problem = zodSchemaProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
const toolList = z
  .array(z.custom<Tool>(isTool, 'must be a tool made by tool()'))
  .default([])
  .superRefine((tools, context) => {
    const seen = new Set<string>();
    for (const [index, item] of tools.entries()) {
      if (seen.has(item.name)) context.addIssue({ code: 'custom', path: [index], message: `duplicate tool name "${item.name}"` });
      seen.add(item.name);
    }
  });

const hookSchema = z
  .object({
    name: z.string().min(1),
    matcher: z.array(z.string()).optional(),
    timeoutMs: z.number().int().positive().optional(),
    observe: z.boolean().optional(),
    failClosed: z.boolean().optional(),
    handle: z.custom<(...args: unknown[]) => unknown>((value) => typeof value === 'function', 'must be a function'),
  })
  .strict();
const hookMapSchema = z
  .object(Object.fromEntries(hookTriggers.map((trigger) => [trigger, z.array(hookSchema).optional()])))
  .strict();
const guardSchema = z
  .object({
    name: z.string().min(1),
    check: z.custom<(...args: unknown[]) => unknown>((value) => typeof value === 'function', 'must be a function'),
  })
  .strict();
const guardrailsSchema = z
  .object({
    input: z.array(guardSchema).optional(),
    output: z.array(guardSchema).optional(),
    tool: z.array(guardSchema).optional(),
  })
  .strict();

const skillCatalog = z
  .custom<SkillCatalog>(
    (value) =>
      Array.isArray((value as SkillCatalog | undefined)?.skills) && typeof (value as SkillCatalog).promptSection === 'string',
    'must be a SkillCatalog from loadSkills()',
  )
  .optional();

const languageModelSchema = z.custom<LanguageModel>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    (value as LanguageModel).specificationVersion === 'v1' &&
    typeof (value as LanguageModel).doStream === 'function',
  'must be a LanguageModel (specificationVersion "v1" with doStream)',
);

const baseShape = {
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'letters, digits, _, - and . only, 1 to 128 characters'),
  description: z.string().default(''),
  model: languageModelSchema,
  fallbackModels: z.array(languageModelSchema).max(8).optional(),
  modelSettings: z
    .object({
      thinking: z
        .object({ enabled: z.boolean(), effort: z.enum(['low', 'medium', 'high']).optional() })
        .strict()
        .optional(),
      maxOutputTokens: z.number().int().positive().optional(),
    })
    .strict()
    .optional(),
  execution: executionOptionsSchema
    .extend({ isRetryable: z.custom<(failure: Failure) => boolean>((value) => typeof value === 'function').optional() })
    .prefault({}),
  context: contextOptionsSchema.prefault({}),
  variables: z.record(z.string(), z.string()).default({}),
  inputSchema: zodSchema.optional(),
  hooks: hookMapSchema.default({}),
  permissions: permissionPolicySchema.optional(),
  guardrails: guardrailsSchema.default({}),
  approvals: z
    .custom<ApprovalPort>(
      (value) => typeof (value as ApprovalPort | undefined)?.request === 'function',
      'must have a request() method',
    )
    .optional(),
  approvalTimeoutMs: z.number().int().positive().default(600_000),
  eventBus: z
    .custom<EventBus<RunEvent>>(
      (value) => typeof (value as EventBus<RunEvent> | undefined)?.publish === 'function',
      'must be an EventBus (publish, subscribe)',
    )
    .optional(),
  telemetry: z.union([z.literal(true), z.object({}).passthrough()]).optional(),
  store: z
    .custom<RunStore>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        storeMethods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
      'must implement RunStore',
    )
    .optional(),
  leaseMs: z.number().int().min(50).default(30_000),
  memory: z
    .custom<MemoryOptions>(
      (value) => typeof (value as MemoryOptions | undefined)?.store?.remember === 'function',
      'must be { store: FactStore, budgetCharacters? }',
    )
    .optional(),
  workspace: z
    .custom<Workspace>(
      (value) => typeof (value as Workspace | undefined)?.cleanupRun === 'function',
      'must be a Workspace from createWorkspace()',
    )
    .optional(),
  codeOrchestration: z
    .union([
      z.boolean(),
      z
        .object({
          sandbox: z
            .custom<NonNullable<CodeOrchestrationOptions['sandbox']>>(
              (value) => typeof (value as { launch?: unknown } | undefined)?.launch === 'function',
              'must be a Sandbox',
            )
            .optional(),
          allowUnisolated: z.boolean().optional(),
          maxToolCalls: z.number().int().positive().optional(),
          maxOutputBytes: z.number().int().positive().optional(),
          maxMemoryMegabytes: z.number().int().min(16).optional(),
        })
        .strict(),
    ])
    .optional(),
};

const reactSchema = z
  .object({
    ...baseShape,
    mode: z.literal('react'),
    prompt: z.string(),
    tools: toolList,
    skills: skillCatalog,
    outputSchema: zodSchema.optional(),
  })
  .strict();

const executorSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only, 1 to 64 characters'),
    description: z.string().min(1, 'say when the planner should delegate to this role'),
    prompt: z.string(),
    tools: toolList,
    skills: skillCatalog,
    inputSchema: zodSchema.optional(),
    outputSchema: zodSchema.optional(),
    background: z.boolean().optional(),
  })
  .strict();

/**
 * One executor role: a remote executor (`a2aAgent()`) as given, or a local role checked by
 * `executorSchema`, its problems reported at their own paths.
 */
const executorEntry = z
  .any()
  .superRefine((value, context) => {
    if (isRemoteExecutor(value)) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(value.name)) {
        context.addIssue({ code: 'custom', path: ['name'], message: 'letters, digits, _ and - only, 1 to 64 characters' });
      }
      return;
    }
    const parsed = executorSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  })
  .transform((value): z.output<typeof executorSchema> | RemoteExecutor =>
    isRemoteExecutor(value) ? value : executorSchema.parse(value),
  );

const planExecutorSchema = z
  .object({
    ...baseShape,
    mode: z.literal('plan-executor'),
    planner: z.object({ prompt: z.string(), tools: toolList, skills: skillCatalog, outputSchema: zodSchema.optional() }).strict(),
    executors: z.array(executorEntry).min(1, 'a Plan–Executor agent needs at least one executor role (L-2)'),
  })
  .strict()
  .superRefine((config, context) => {
    const plannerTools = new Set(config.planner.tools.map((item) => item.name));
    const seen = new Set<string>();
    for (const [index, executor] of config.executors.entries()) {
      if (seen.has(executor.name)) {
        context.addIssue({
          code: 'custom',
          path: ['executors', index, 'name'],
          message: `duplicate executor name "${executor.name}"`,
        });
      }
      if (plannerTools.has(executor.name)) {
        context.addIssue({
          code: 'custom',
          path: ['executors', index, 'name'],
          message: `"${executor.name}" is also the name of a planner tool; the planner's model could not tell them apart`,
        });
      }
      seen.add(executor.name);
    }
  });

const agentModes = ['react', 'plan-executor'] as const;
const schemaByMode = { react: reactSchema, 'plan-executor': planExecutorSchema } as const;
/** The fields every mode shares, for reporting them when the mode itself is wrong. */
const modeAgnosticSchema = z.object(baseShape);

type ParsedAgentConfig = z.output<typeof reactSchema> | z.output<typeof planExecutorSchema>;

/**
 * Every problem of an agent configuration, each with the path of its field; empty when the
 * configuration is valid. The one validation path of agents: `new Agent` and `createAgent` both
 * go through it. An unknown `mode` does not hide the other problems: the fields every mode
 * shares are still checked. Pure: creates nothing and starts nothing (B-4).
 */
export function agentConfigIssues(config: unknown): ConfigurationIssue[] {
  return checkAgentConfig(config).issues;
}

function checkAgentConfig(config: unknown): { issues: ConfigurationIssue[]; resolved?: ResolvedAgentConfig } {
  const mode = (config as { mode?: unknown } | null | undefined)?.mode;
  if (!agentModes.includes(mode as (typeof agentModes)[number])) {
    const shared = modeAgnosticSchema.safeParse(config);
    const issues = shared.success ? [] : issuesOf(shared.error);
    if (typeof config === 'object' && config !== null) {
      issues.unshift({
        path: 'mode',
        message: `must be "react" or "plan-executor"${mode === undefined ? '' : `, not ${describeValue(mode)}`}`,
      });
    }
    return { issues };
  }
  const parsed = schemaByMode[mode as (typeof agentModes)[number]].safeParse(config);
  if (!parsed.success) return { issues: issuesOf(parsed.error) };
  const data = parsed.data as ParsedAgentConfig;
  const scripts = data.codeOrchestration ? resolveCodeOrchestration(data.codeOrchestration, data.workspace?.sandbox) : undefined;
  if (scripts && 'problem' in scripts) return { issues: [{ path: 'codeOrchestration', message: scripts.problem }] };
  const resolved = resolveParsed(data, scripts);
  const issues = duplicateToolNameIssues(resolved);
  return issues.length > 0 ? { issues } : { issues, resolved };
}

function issuesOf(error: z.ZodError): ConfigurationIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : typeof value;
}

/**
 * Validates an agent configuration and fills in defaults; throws `InvalidConfigurationError`
 * listing every problem (`agentConfigIssues`). Pure: creates nothing and starts nothing (B-4).
 */
export function resolveAgentConfig(config: AgentConfig): ResolvedAgentConfig {
  const checked = checkAgentConfig(config);
  if (checked.resolved) return checked.resolved;
  const name = typeof (config as { name?: unknown })?.name === 'string' ? ` "${config.name}"` : '';
  throw new InvalidConfigurationError(`agent${name}`, checked.issues);
}

function resolveParsed(data: ParsedAgentConfig, scripts: ResolvedCodeOrchestration | undefined): ResolvedAgentConfig {
  const { isRetryable, ...execution } = data.execution;
  const common = {
    name: data.name,
    description: data.description,
    model: data.model,
    fallbackModels: data.fallbackModels ?? [],
    modelSettings: data.modelSettings as ModelSettings | undefined,
    execution,
    isRetryable,
    context: data.context,
    variables: data.variables,
    inputSchema: data.inputSchema,
    hooks: data.hooks as HookMap,
    permissions: data.permissions as PermissionPolicy | undefined,
    guardrails: data.guardrails as Guardrails,
    approvals: data.approvals,
    approvalTimeoutMs: data.approvalTimeoutMs,
    eventBus: data.eventBus,
    telemetry: data.telemetry === true ? {} : (data.telemetry as TracingOptions | undefined),
    workspace: data.workspace,
    store: data.store,
    leaseMs: data.leaseMs,
  };
  // Every role gets the workspace's file tools and the memory tools; each role its own skills,
  // listed in its prompt.
  const shared = [...(data.workspace?.tools ?? []), ...(data.memory ? createMemoryTools(data.memory) : [])];
  const prompted = (prompt: string, skills: SkillCatalog | undefined) =>
    skills?.promptSection ? `${prompt}\n\n${skills.promptSection}` : prompt;
  // With code orchestration on (N-15), each role also gets `run_script` over its other tools.
  const tooled = (tools: readonly Tool[], skills: SkillCatalog | undefined) => {
    const own = [...tools, ...(skills?.tools ?? []), ...shared];
    return scripts
      ? [
          ...own,
          createScriptTool(
            scripts,
            own.map((item) => item.name),
          ),
        ]
      : own;
  };
  const resolved: ResolvedAgentConfig =
    data.mode === 'react'
      ? {
          ...common,
          mode: 'react',
          entry: role(
            data.name,
            data.description,
            prompted(data.prompt, data.skills),
            tooled(data.tools, data.skills),
            undefined,
            data.outputSchema,
          ),
          executors: [],
        }
      : {
          ...common,
          mode: 'plan-executor',
          entry: role(
            'planner',
            data.description,
            prompted(data.planner.prompt, data.planner.skills),
            tooled(data.planner.tools, data.planner.skills),
            undefined,
            data.planner.outputSchema,
          ),
          executors: data.executors.map((executor) =>
            isRemoteExecutor(executor)
              ? { name: executor.name, description: executor.description, prompt: '', tools: [], remote: executor.tool }
              : role(
                  executor.name,
                  executor.description,
                  prompted(executor.prompt, executor.skills),
                  tooled(executor.tools, executor.skills),
                  executor.inputSchema,
                  executor.outputSchema,
                  executor.background,
                ),
          ),
        };
  return resolved;
}

/** A tool name given twice to one role (by hand and through skills or the workspace) is a configuration error. */
function duplicateToolNameIssues(config: ResolvedAgentConfig): ConfigurationIssue[] {
  const issues: ConfigurationIssue[] = [];
  for (const resolvedRole of [config.entry, ...config.executors]) {
    const seen = new Set<string>();
    for (const item of resolvedRole.tools) {
      if (seen.has(item.name)) {
        issues.push({
          path: `${resolvedRole.name}.tools`,
          message: `the tool name "${item.name}" is given twice (tools, skills or workspace)`,
        });
      }
      seen.add(item.name);
    }
  }
  return issues;
}

function role(
  name: string,
  description: string,
  prompt: string,
  tools: readonly Tool[],
  inputSchema: z.ZodType | undefined,
  outputSchema: z.ZodType | undefined,
  background?: boolean,
): ResolvedRole {
  return {
    name,
    description,
    prompt,
    tools,
    ...(inputSchema ? { inputSchema } : {}),
    ...(outputSchema ? { outputSchema } : {}),
    ...(background ? { background: true } : {}),
  };
}
