import type { Tool } from '../capabilities/tools/tool.js';
import { InvalidConfigurationError } from '../core/errors/index.js';
import { compileJsonSchema, type JsonSchema, zodFromJsonSchema } from '../core/json-schema/index.js';
import { Agent } from '../engine/agent/agent.js';
import { END, START } from '../engine/workflow/channels/channel-names.js';
import {
  type AnyStateField,
  appendList,
  lastValue,
  mergeWith,
  type StateDefinition,
} from '../engine/workflow/channels/state-fields.js';
import { WorkflowValidationError } from '../engine/workflow/errors/workflow-errors.js';
import { send } from '../engine/workflow/graph/graph-definition.js';
import { WorkflowBuilder } from '../engine/workflow/graph/workflow-builder.js';
import type { NodeRetryPolicy } from '../engine/workflow/nodes/node-retry.js';
import type { Workflow, WorkflowOptions } from '../engine/workflow/workflow.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { type Condition, evaluateCondition, fieldsOf, readPath } from './condition.js';
import { agentConfigFromDefinition } from './create-agent.js';
import { addTeamNode, addTeamStates, teamExitOf, teamStepsOf } from './create-workflow-teams.js';
import { type DefinitionRegistry, toolsByName, type WorkflowStateView } from './definition-registry.js';
import { type DefinitionProblem, InvalidDefinitionError, pathOf } from './invalid-definition-error.js';
import { type ParsedWorkflowDefinition, type WorkflowDefinition, workflowDefinitionSchema } from './workflow-definition.js';

type Builder = WorkflowBuilder<StateDefinition>;
type State = WorkflowStateView;

/**
 * Builds a workflow from its definition (data, e.g. parsed JSON) and a registry that resolves the
 * names it uses (tools, MCP servers, agents, route/fan-out/loop/input functions, merge reducers,
 * and for inline agents their models, tools, hooks …). Inline agents get the registry's store,
 * like the workflow; without one, both share one new `MemoryRunStore`. Throws
 * `InvalidDefinitionError` listing every problem — format, unknown names, state fields a
 * condition or template reads that do not exist, and every graph issue that
 * `WorkflowBuilder.compile()` finds (W-4) — before anything runs or is stored.
 *
 * @example
 * const workflow = createWorkflow(JSON.parse(readFileSync('report.json', 'utf8')), {
 *   models: { default: model },
 *   tools: [searchDocuments, saveReport],
 *   store,
 * });
 */
export function createWorkflow(
  definition: WorkflowDefinition | unknown,
  given: DefinitionRegistry = {},
): Workflow<StateDefinition> {
  // One store for the workflow and its inline agents, even when the host gives none.
  const registry: DefinitionRegistry = { ...given, store: given.store ?? new MemoryRunStore() };
  const name = (definition as { name?: unknown } | null)?.name;
  const subject = typeof name === 'string' ? `workflow "${name}"` : 'workflow';
  const parsed = workflowDefinitionSchema.safeParse(definition);
  if (!parsed.success) {
    throw new InvalidDefinitionError(
      subject,
      parsed.error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message })),
    );
  }
  const data = parsed.data;
  const problems: DefinitionProblem[] = [];
  const state = buildState(data, registry, problems);
  // A team node's fields are its own (prefixed with its name), never read by templates or conditions.
  const fieldExists = (path: string) => Object.hasOwn(state, path.split('.')[0] ?? '');
  addTeamStates(state, data, problems);
  const agents = buildAgents(data, registry, problems);
  const builder: Builder = new WorkflowBuilder({ name: data.name, state });
  addNodes(builder, data, registry, agents, fieldExists, problems);
  // What leaves a team node leaves it once the team has ended: from its `<name>.done` node.
  const source = teamExitOf(data, endpoint);
  for (const edge of data.edges) {
    builder.addEdge(typeof edge.from === 'string' ? source(edge.from) : edge.from.map(source), endpoint(edge.to));
  }
  addRoutes(builder, data, registry, fieldExists, problems, source);
  addLoops(builder, data, registry, fieldExists, problems, source);
  if (problems.length > 0) throw new InvalidDefinitionError(subject, problems);
  const teamSteps = teamStepsOf(data, registry);
  const options: WorkflowOptions<StateDefinition> = {
    ...(data.policy ?? {}),
    // Every team node may take its own turns' supersteps beyond the default bound.
    ...(teamSteps > 0 && data.policy?.maxSteps === undefined ? { maxSteps: 100 + teamSteps } : {}),
    store: registry.store,
    ...(data.output ? { output: data.output } : {}),
  };
  try {
    return builder.compile(options);
  } catch (error) {
    if (WorkflowValidationError.isInstance(error)) {
      throw new InvalidDefinitionError(
        subject,
        error.issues.map((issue) => ({ path: issuePath(issue, data), message: `[${issue.code}] ${issue.message}` })),
      );
    }
    if (InvalidConfigurationError.isInstance(error)) throw new InvalidDefinitionError(subject, error.issues);
    throw error;
  }
}

/** START and END as JSON authors write them. */
function endpoint(name: string): string {
  if (name === 'START') return START;
  if (name === 'END') return END;
  return name;
}

function buildState(
  data: ParsedWorkflowDefinition,
  registry: DefinitionRegistry,
  problems: DefinitionProblem[],
): StateDefinition {
  const state: Record<string, AnyStateField> = {};
  for (const [field, spec] of Object.entries(data.state)) {
    const path = `state.${field}`;
    const schema = zodFromJsonSchema(spec.schema as JsonSchema);
    if (spec.default !== undefined) {
      const compiled = compileJsonSchema(spec.schema as JsonSchema);
      const mismatches = compiled.ok ? compiled.validate(spec.default) : [];
      for (const mismatch of mismatches) {
        problems.push({ path: pathOf([`${path}.default`, ...mismatch.path]), message: mismatch.message });
      }
    }
    if (spec.reducer !== 'merge' && spec.merge !== undefined) {
      problems.push({ path: `${path}.merge`, message: 'only a field with reducer "merge" names a merge' });
    }
    if (spec.reducer === 'last-value') {
      state[field] = spec.default === undefined ? lastValue(schema) : lastValue(schema, { default: spec.default });
    } else if (spec.reducer === 'append') {
      if (spec.default !== undefined) problems.push({ path: `${path}.default`, message: 'an append field starts empty' });
      state[field] = appendList(schema);
    } else {
      const initialValue = spec.default;
      if (spec.merge === undefined || spec.merge === 'object') {
        state[field] = mergeWith(schema, {
          initial: () => structuredClone(initialValue ?? {}),
          merge: (current, update) => ({ ...(current as object), ...(update as object) }),
        });
        continue;
      }
      const reducer = registry.reducers?.[spec.merge];
      if (!reducer) {
        problems.push({ path: `${path}.merge`, message: `no reducer "${spec.merge}" in the registry` });
        continue;
      }
      state[field] = mergeWith(schema, {
        initial: initialValue === undefined ? reducer.initial : () => structuredClone(initialValue),
        merge: reducer.merge,
      });
    }
  }
  return state;
}

function buildAgents(
  data: ParsedWorkflowDefinition,
  registry: DefinitionRegistry,
  problems: DefinitionProblem[],
): Map<string, Agent> {
  const agents = new Map<string, Agent>(Object.entries(registry.agents ?? {}));
  for (const [name, definition] of Object.entries(data.agents ?? {})) {
    const built = agentConfigFromDefinition(definition, registry);
    const prefixed = (path: string) => (path ? `agents.${name}.${path}` : `agents.${name}`);
    if (!built.config) {
      problems.push(...built.problems.map((problem) => ({ path: prefixed(problem.path), message: problem.message })));
      continue;
    }
    try {
      agents.set(name, new Agent(built.config));
    } catch (error) {
      if (!InvalidConfigurationError.isInstance(error)) throw error;
      problems.push(...error.issues.map((issue) => ({ path: prefixed(issue.path), message: issue.message })));
    }
  }
  return agents;
}

function addNodes(
  builder: Builder,
  data: ParsedWorkflowDefinition,
  registry: DefinitionRegistry,
  agents: ReadonlyMap<string, Agent>,
  fieldExists: (path: string) => boolean,
  problems: DefinitionProblem[],
): void {
  const tools = toolsByName(registry);
  for (const [index, node] of data.nodes.entries()) {
    const path = `nodes.${index}`;
    if (node.kind === 'team') {
      const input = inputBinding(node.input, path, registry, fieldExists, problems);
      const task = typeof input === 'string' ? (state: State) => textOf(state[input]) : input;
      if (task) addTeamNode(builder, node, path, registry, task, fieldExists, problems);
      continue;
    }
    if (node.kind === 'agent') {
      const agent = agents.get(node.agent);
      if (!agent) {
        problems.push({ path: `${path}.agent`, message: `no agent "${node.agent}" in the definition's agents or the registry` });
        continue;
      }
      const input = inputBinding(node.input, path, registry, fieldExists, problems);
      builder.addAgentNode(node.name, agent, {
        ...(input !== undefined ? { input: input as never } : {}),
        ...(node.output !== undefined ? { output: node.output } : {}),
        ...(node.sessionId !== undefined ? { sessionId: node.sessionId } : {}),
      });
      if (node.artifacts) builder.declareArtifacts(node.name, node.artifacts);
      continue;
    }
    if (node.kind === 'input') {
      for (const placeholder of placeholdersOf(node.question)) {
        if (!fieldExists(placeholder))
          problems.push({ path: `${path}.question`, message: `{{${placeholder}}} names no state field` });
      }
      if (node.schema !== undefined) {
        const compiled = compileJsonSchema(node.schema as JsonSchema);
        if (!compiled.ok) problems.push({ path: `${path}.schema`, message: compiled.problems.join('; ') });
      }
      builder.addInputNode(node.name, {
        question: node.question,
        ...(node.schema !== undefined ? { schema: node.schema as JsonSchema } : {}),
        ...(node.choices !== undefined ? { choices: node.choices } : {}),
        ...(node.output !== undefined ? { output: node.output } : {}),
        ...(node.timeout !== undefined ? { timeout: { afterMs: node.timeout.afterMs, outcome: node.timeout.outcome } } : {}),
      });
      continue;
    }
    let tool: Tool | undefined;
    if (node.server !== undefined) {
      const serverTools = registry.mcpServers?.[node.server];
      if (!serverTools) problems.push({ path: `${path}.server`, message: `no MCP server "${node.server}" in the registry` });
      tool = serverTools?.find((candidate) => candidate.name === node.tool);
      if (serverTools && !tool)
        problems.push({ path: `${path}.tool`, message: `the MCP server "${node.server}" has no tool "${node.tool}"` });
    } else {
      tool = tools.get(node.tool);
      if (!tool) problems.push({ path: `${path}.tool`, message: `no tool "${node.tool}" in the registry` });
    }
    if (!tool) continue;
    builder.addCapabilityNode(node.name, tool, {
      ...(node.input !== undefined ? { input: node.input as never } : {}),
      ...(node.output !== undefined ? { output: node.output } : {}),
      ...(node.resultSchema !== undefined ? { resultSchema: zodFromJsonSchema(node.resultSchema as JsonSchema) } : {}),
      ...(node.timeoutMs !== undefined ? { timeoutMs: node.timeoutMs } : {}),
      ...(node.retry !== undefined ? { retry: node.retry as NodeRetryPolicy } : {}),
    });
    if (node.artifacts) builder.declareArtifacts(node.name, node.artifacts);
  }
}

/** An agent's or team's input binding: a field, a template over the state, or a registry function. */
function inputBinding(
  input: string | { template: string } | { function: string } | undefined,
  path: string,
  registry: DefinitionRegistry,
  fieldExists: (path: string) => boolean,
  problems: DefinitionProblem[],
): string | ((state: State) => string) | undefined {
  if (typeof input === 'string' || input === undefined) return input;
  if ('template' in input) {
    const template = input.template;
    for (const placeholder of placeholdersOf(template)) {
      if (!fieldExists(placeholder)) {
        problems.push({ path: `${path}.input.template`, message: `{{${placeholder}}} names no state field` });
      }
    }
    return (state) => renderTemplate(template, state);
  }
  const found = registry.inputs?.[input.function];
  if (!found) problems.push({ path: `${path}.input.function`, message: `no input function "${input.function}" in the registry` });
  return found;
}

/** Text for an agent or a team: strings as they are, anything else as JSON, nothing for a missing value. */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

function addRoutes(
  builder: Builder,
  data: ParsedWorkflowDefinition,
  registry: DefinitionRegistry,
  fieldExists: (path: string) => boolean,
  problems: DefinitionProblem[],
  source: (name: string) => string,
): void {
  const checkFields = (condition: Condition, path: string) => {
    for (const field of fieldsOf(condition)) {
      if (!fieldExists(field)) problems.push({ path, message: `the condition reads "${field}", which names no state field` });
    }
  };
  const list = (targets: string | readonly string[]) => (typeof targets === 'string' ? [targets] : [...targets]).map(endpoint);
  for (const [index, route] of (data.routes ?? []).entries()) {
    const path = `routes.${index}`;
    if ('function' in route) {
      const decide = registry.routes?.[route.function];
      if (!decide) problems.push({ path: `${path}.function`, message: `no route function "${route.function}" in the registry` });
      else {
        const targets = route.targets.map(endpoint);
        builder.addConditionalEdges(source(route.from), (state) => mapTargets(decide(state)), targets);
      }
      continue;
    }
    for (const [branchIndex, branch] of route.when.entries()) checkFields(branch.if, `${path}.when.${branchIndex}.if`);
    const branches = route.when.map((branch) => ({ condition: branch.if, targets: list(branch.to) }));
    const otherwise = list(route.otherwise);
    const targets = [...new Set([...branches.flatMap((branch) => branch.targets), ...otherwise])];
    builder.addConditionalEdges(
      source(route.from),
      (state) => branches.find((branch) => evaluateCondition(branch.condition, state))?.targets ?? otherwise,
      targets,
    );
  }
  for (const [index, fanOut] of (data.fanOuts ?? []).entries()) {
    const path = `fanOuts.${index}`;
    if ('function' in fanOut) {
      const decide = registry.fanOuts?.[fanOut.function];
      if (!decide)
        problems.push({ path: `${path}.function`, message: `no fan-out function "${fanOut.function}" in the registry` });
      else builder.addFanOut(source(fanOut.from), decide, fanOut.targets.map(endpoint));
      continue;
    }
    const { forEach, to } = fanOut;
    if (!fieldExists(forEach)) problems.push({ path: `${path}.forEach`, message: `"${forEach}" names no state field` });
    const target = endpoint(to);
    builder.addFanOut(
      source(fanOut.from),
      (state) => {
        const items = readPath(state, forEach);
        return Array.isArray(items) ? items.map((item) => send(target, item)) : [];
      },
      [target],
    );
  }
}

function addLoops(
  builder: Builder,
  data: ParsedWorkflowDefinition,
  registry: DefinitionRegistry,
  fieldExists: (path: string) => boolean,
  problems: DefinitionProblem[],
  source: (name: string) => string,
): void {
  for (const [index, loop] of (data.loops ?? []).entries()) {
    const path = `loops.${index}.while`;
    let condition: ((state: State) => boolean) | undefined;
    if ('function' in loop.while) {
      condition = registry.conditions?.[loop.while.function];
      if (!condition)
        problems.push({ path: `${path}.function`, message: `no condition "${loop.while.function}" in the registry` });
    } else {
      const declared = loop.while as Condition;
      for (const field of fieldsOf(declared)) {
        if (!fieldExists(field)) problems.push({ path, message: `the condition reads "${field}", which names no state field` });
      }
      condition = (state) => evaluateCondition(declared, state);
    }
    if (!condition) continue;
    builder.addLoop({
      from: source(loop.from),
      to: endpoint(loop.to),
      exit: endpoint(loop.exit),
      while: condition,
      maxIterations: loop.maxIterations,
    });
  }
}

/** A route function's answer with START/END spelled as in JSON mapped to the engine's names. */
function mapTargets(targets: string | readonly string[]): string | string[] {
  return typeof targets === 'string' ? endpoint(targets) : targets.map(endpoint);
}

const placeholderPattern = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

function placeholdersOf(template: string): string[] {
  return [...template.matchAll(placeholderPattern)].map((match) => match[1] as string);
}

/**
 * Renders an agent node's input template: `{{field}}` (or a dotted path) becomes the value — text
 * as is, a list as its items (text as is, anything else as JSON) separated by a blank line, any
 * other value as JSON, nothing for a missing value.
 */
export function renderTemplate(template: string, state: State): string {
  const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));
  return template.replace(placeholderPattern, (_match, path: string) => {
    const value = readPath(state, path);
    return Array.isArray(value) ? value.map(text).join('\n\n') : text(value);
  });
}

/** Where a graph issue points in the definition: the node it names, when it names one. */
function issuePath(issue: WorkflowValidationError['issues'][number], data: ParsedWorkflowDefinition): string {
  const node = 'node' in issue ? issue.node : undefined;
  const index = node === undefined ? -1 : data.nodes.findIndex((candidate) => candidate.name === node);
  if (index >= 0) return `nodes.${index}`;
  if (issue.code === 'unknown-field' && node === '(workflow output)') return 'output';
  return '';
}
