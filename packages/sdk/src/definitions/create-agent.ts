import type { z } from 'zod';
import type { Skill, SkillCatalog } from '../capabilities/skills/load-skills.js';
import { createReadSkillTool, skillsPromptSection } from '../capabilities/skills/skill-tools.js';
import type { Tool } from '../capabilities/tools/tool.js';
import { InvalidConfigurationError } from '../core/errors/index.js';
import { type JsonSchema, zodFromJsonSchema } from '../core/json-schema/index.js';
import { Agent } from '../engine/agent/agent.js';
import { type AgentConfig, agentConfigIssues, type ExecutorConfig } from '../engine/agent/agent-config.js';
import type { Guardrail, Guardrails, ToolGuardrail } from '../hooks/guardrails.js';
import { type Hook, type HookMap, type HookTrigger, hookTriggers } from '../hooks/hook-types.js';
import {
  type AgentDefinition,
  agentDefinitionSchema,
  agentDefinitionSharedSchema,
  type CapabilityReferences,
  type HookReference,
} from './agent-definition.js';
import { type DefinitionRegistry, toolsByName } from './definition-registry.js';
import { type DefinitionProblem, InvalidDefinitionError, pathOf } from './invalid-definition-error.js';

/**
 * Builds an agent from its definition (data, e.g. parsed JSON) and a registry that resolves the
 * names it uses. The same definition and registry always build the same agent as the equivalent
 * code configuration. Throws `InvalidDefinitionError` listing every problem (format, unknown
 * names, an agent configuration that would not validate), before anything is created (B-4).
 *
 * @example
 * const agent = createAgent(JSON.parse(readFileSync('agent.json', 'utf8')), {
 *   models: { default: model },
 *   tools: [readFile, countWords],
 *   store,
 * });
 */
export function createAgent(definition: AgentDefinition | unknown, registry: DefinitionRegistry = {}): Agent {
  const subject = subjectOf(definition);
  const built = agentConfigFromDefinition(definition, registry);
  if (!built.config) throw new InvalidDefinitionError(subject, built.problems);
  try {
    return new Agent(built.config);
  } catch (error) {
    if (!InvalidConfigurationError.isInstance(error)) throw error;
    throw new InvalidDefinitionError(subject, error.issues);
  }
}

/** `agent "name"` for messages, whatever the definition holds. */
function subjectOf(definition: unknown): string {
  const name = (definition as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? `agent "${name}"` : 'agent';
}

/**
 * The code configuration a definition stands for, or every problem that prevents it. Used by
 * `createAgent` and by `createWorkflow` for agents defined inline (problems then get its prefix).
 */
export function agentConfigFromDefinition(
  definition: unknown,
  registry: DefinitionRegistry,
): { config?: AgentConfig; problems: DefinitionProblem[] } {
  const parsed = agentDefinitionSchema.safeParse(definition);
  if (!parsed.success) return { problems: formatProblems(definition, parsed.error) };
  const data = parsed.data;
  const problems: DefinitionProblem[] = [];
  const model = registry.models?.[data.model];
  if (!model) problems.push({ path: 'model', message: `no model "${data.model}" in the registry` });
  const fallbackModels = (data.fallbackModels ?? []).flatMap((name, index) => {
    const found = registry.models?.[name];
    if (!found) problems.push({ path: `fallbackModels.${index}`, message: `no model "${name}" in the registry` });
    return found ? [found] : [];
  });
  if (data.memory?.enabled && !registry.factStore) {
    problems.push({ path: 'memory', message: 'memory is on but the registry has no factStore' });
  }
  const memory =
    data.memory?.enabled && registry.factStore
      ? {
          store: registry.factStore,
          ...(data.memory.budgetCharacters !== undefined ? { budgetCharacters: data.memory.budgetCharacters } : {}),
          ...(data.memory.maximumFactCharacters !== undefined
            ? { maximumFactCharacters: data.memory.maximumFactCharacters }
            : {}),
        }
      : undefined;
  const hooks = resolveHooks(data.hooks ?? {}, registry, problems);
  const guardrails = resolveGuardrails(data.guardrails ?? {}, registry, problems);
  const common = {
    name: data.name,
    ...(data.description !== undefined ? { description: data.description } : {}),
    model: model as NonNullable<typeof model>,
    ...(fallbackModels.length > 0 ? { fallbackModels } : {}),
    ...(data.modelSettings ? { modelSettings: data.modelSettings } : {}),
    execution: { ...(data.execution ?? {}), ...(registry.isRetryable ? { isRetryable: registry.isRetryable } : {}) },
    context: { ...(data.context ?? {}), ...(registry.countTokens ? { countTokens: registry.countTokens } : {}) },
    ...(data.variables ? { variables: data.variables } : {}),
    ...(data.inputSchema ? { inputSchema: zodFromJsonSchema(data.inputSchema as JsonSchema) } : {}),
    hooks,
    ...(data.permissions ? { permissions: data.permissions } : {}),
    guardrails,
    ...(data.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: data.approvalTimeoutMs } : {}),
    ...(data.leaseMs !== undefined ? { leaseMs: data.leaseMs } : {}),
    ...(registry.store ? { store: registry.store } : {}),
    ...(registry.approvals ? { approvals: registry.approvals } : {}),
    ...(registry.eventBus ? { eventBus: registry.eventBus } : {}),
    ...(registry.workspace ? { workspace: registry.workspace } : {}),
    ...(memory ? { memory } : {}),
    ...(registry.telemetry ? { telemetry: registry.telemetry } : {}),
    ...codeOrchestrationOf(data.codeOrchestration, registry),
  };
  let config: AgentConfig;
  if (data.mode === 'react') {
    config = {
      ...common,
      mode: 'react',
      prompt: data.prompt,
      ...resolveCapabilities(data, registry, '', problems),
      ...(data.outputSchema ? { outputSchema: zodFromJsonSchema(data.outputSchema as JsonSchema) } : {}),
    };
  } else {
    const executors: ExecutorConfig[] = data.executors.map((executor, index) => ({
      name: executor.name,
      description: executor.description,
      prompt: executor.prompt,
      ...resolveCapabilities(executor, registry, `executors.${index}.`, problems),
      ...(executor.inputSchema ? { inputSchema: zodFromJsonSchema(executor.inputSchema as JsonSchema) } : {}),
      ...(executor.background ? { background: true } : {}),
      ...(executor.outputSchema ? { outputSchema: zodFromJsonSchema(executor.outputSchema as JsonSchema) } : {}),
    }));
    config = {
      ...common,
      mode: 'plan-executor',
      planner: {
        prompt: data.planner.prompt,
        ...resolveCapabilities(data.planner, registry, 'planner.', problems),
        ...(data.planner.outputSchema ? { outputSchema: zodFromJsonSchema(data.planner.outputSchema as JsonSchema) } : {}),
      },
      executors,
    };
  }
  // The built configuration goes through the agents' one validation path, so that what the
  // format cannot see (a tool name given twice, an executor named like a planner tool) is
  // reported with everything else; what a registry problem already explains is not repeated.
  const reported = problems.map((problem) => problem.path);
  for (const issue of agentConfigIssues(config)) {
    if (!reported.some((path) => issue.path === path || issue.path.startsWith(`${path}.`))) problems.push(issue);
  }
  return problems.length > 0 ? { problems } : { config, problems };
}

/**
 * The format problems of a definition. A wrong `mode` does not hide the other problems: the
 * fields every mode shares are checked too.
 */
function formatProblems(definition: unknown, error: z.ZodError): DefinitionProblem[] {
  const mode = (definition as { mode?: unknown } | null | undefined)?.mode;
  if (mode === 'react' || mode === 'plan-executor' || typeof definition !== 'object' || definition === null) {
    return error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message }));
  }
  const shared = agentDefinitionSharedSchema.safeParse(definition);
  const problems: DefinitionProblem[] = [
    { path: 'mode', message: `must be "react" or "plan-executor"${typeof mode === 'string' ? `, not "${mode}"` : ''}` },
  ];
  if (!shared.success)
    problems.push(...shared.error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message })));
  return problems;
}

/** A role's tools (its own and its MCP servers') and skills, each name resolved or reported. */
function resolveCapabilities(
  references: CapabilityReferences,
  registry: DefinitionRegistry,
  prefix: string,
  problems: DefinitionProblem[],
): { tools: Tool[]; skills?: SkillCatalog } {
  const known = toolsByName(registry);
  const tools: Tool[] = [];
  for (const [index, name] of (references.tools ?? []).entries()) {
    const found = known.get(name);
    if (found) tools.push(found);
    else problems.push({ path: `${prefix}tools.${index}`, message: `no tool "${name}" in the registry` });
  }
  for (const [index, reference] of (references.mcp ?? []).entries()) {
    const serverTools = registry.mcpServers?.[reference.server];
    if (!serverTools) {
      problems.push({ path: `${prefix}mcp.${index}.server`, message: `no MCP server "${reference.server}" in the registry` });
      continue;
    }
    if (!reference.tools) {
      tools.push(...serverTools);
      continue;
    }
    for (const [toolIndex, name] of reference.tools.entries()) {
      const found = serverTools.find((candidate) => candidate.name === name);
      if (found) tools.push(found);
      else {
        problems.push({
          path: `${prefix}mcp.${index}.tools.${toolIndex}`,
          message: `the MCP server "${reference.server}" has no tool "${name}"`,
        });
      }
    }
  }
  const skillNames = references.skills ?? [];
  if (skillNames.length === 0) return { tools };
  const selected: Skill[] = [];
  for (const [index, name] of skillNames.entries()) {
    const found = registry.skills?.skills.find((skill) => skill.name === name);
    if (found) selected.push(found);
    else problems.push({ path: `${prefix}skills.${index}`, message: `no skill "${name}" in the registry's catalogue` });
  }
  return {
    tools,
    skills: {
      skills: selected,
      problems: [],
      warnings: [],
      tools: selected.length > 0 ? [createReadSkillTool(selected)] : [],
      promptSection: skillsPromptSection(selected),
    },
  };
}

function resolveHooks(
  definitions: Partial<Record<HookTrigger, HookReference[]>>,
  registry: DefinitionRegistry,
  problems: DefinitionProblem[],
): HookMap {
  const map: Record<string, Hook[]> = {};
  for (const trigger of hookTriggers) {
    const references = definitions[trigger];
    if (!references) continue;
    map[trigger] = references.flatMap((reference, index) => {
      const name = typeof reference === 'string' ? reference : reference.hook;
      const hook = registry.hooks?.[name];
      if (!hook) {
        problems.push({ path: `hooks.${trigger}.${index}`, message: `no hook "${name}" in the registry` });
        return [];
      }
      if (typeof reference === 'string') return [hook];
      const { hook: _name, ...overrides } = reference;
      return [{ ...hook, ...overrides }];
    });
  }
  return map as HookMap;
}

function resolveGuardrails(
  definitions: { input?: string[]; output?: string[]; tool?: string[] },
  registry: DefinitionRegistry,
  problems: DefinitionProblem[],
): Guardrails {
  const pick = <Kind extends Guardrail | ToolGuardrail>(kind: 'input' | 'output' | 'tool'): Kind[] =>
    (definitions[kind] ?? []).flatMap((name, index) => {
      const found = registry.guardrails?.[name];
      if (found) return [found as Kind];
      problems.push({ path: `guardrails.${kind}.${index}`, message: `no guardrail "${name}" in the registry` });
      return [];
    });
  return { input: pick<Guardrail>('input'), output: pick<Guardrail>('output'), tool: pick<ToolGuardrail>('tool') };
}

/**
 * The agent's code orchestration (N-15) from its definition: the limits come from the file, the
 * sandbox from the registry (`sandbox`, else the workspace's), never from the file.
 */
function codeOrchestrationOf(
  setting: boolean | { maxToolCalls?: number; maxOutputBytes?: number; maxMemoryMegabytes?: number } | undefined,
  registry: DefinitionRegistry,
): Pick<AgentConfig, 'codeOrchestration'> {
  if (!setting) return {};
  const limits = setting === true ? {} : setting;
  return { codeOrchestration: { ...limits, ...(registry.sandbox ? { sandbox: registry.sandbox } : {}) } };
}
