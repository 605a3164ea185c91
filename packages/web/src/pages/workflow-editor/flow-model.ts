import type { MessageId } from '../../i18n/index.js';
import { type Operator, operators } from './condition-text.js';
import { type DraftIssue, deleteNode, nodesOf, stateFieldsOf, type WorkflowDraft } from './draft-model.js';

/*
 * Routes and bounded loops of the definition as the canvas edits them (issue 36): written in the
 * SDK's declarative condition language (`@agentloom/sdk` `Condition`), checked here with the same
 * rules the SDK's schema and `createWorkflow` apply when the platform saves, checks or publishes
 * (the console does not bundle the SDK), and the server's own issues placed on the same fields.
 */

export { conditionText, type Operator, operators } from './condition-text.js';

/** One comparison of the condition language: a dotted state path and exactly one operator. */
export type Comparison = { field: string } & Partial<Record<Operator, unknown>>;
/** The declarative condition language: comparisons combined with all / any / not. */
export type Condition = Comparison | { all: Condition[] } | { any: Condition[] } | { not: Condition };

/** A declarative route: the first branch whose condition holds picks its targets, else `otherwise`. */
export interface DeclarativeRoute {
  from: string;
  when: { if: Condition; to: string | string[] }[];
  otherwise: string | string[];
}

/** A bounded loop: after `from`, back to `to` while the condition holds and fewer than `maxIterations` ran; else `exit`. */
export interface BoundedLoop {
  from: string;
  to: string;
  exit: string;
  while: Condition | { function: string };
  maxIterations: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The definition's routes and loops as they are stored (loosely: a draft may be half-built). */
export const routesOf = (definition: Record<string, unknown>): unknown[] =>
  Array.isArray(definition.routes) ? definition.routes : [];
export const loopsOf = (definition: Record<string, unknown>): unknown[] =>
  Array.isArray(definition.loops) ? definition.loops : [];

/** The route or loop a conditional arrow id names (`route-2-…`, `loop-0-back`). */
export function conditionalOf(arrowId: string): { kind: 'routes' | 'loops'; index: number } | undefined {
  const match = /^(route|loop)-(\d+)-/.exec(arrowId);
  return match ? { kind: match[1] === 'route' ? 'routes' : 'loops', index: Number(match[2]) } : undefined;
}

/** A first condition for a new route or loop: the first state field equals "" (the editor asks for the value). */
function firstCondition(draft: WorkflowDraft): Comparison {
  return { field: Object.keys(stateFieldsOf(draft.definition))[0] ?? '', equals: '' };
}

/** Sets `definition[kind]` (removing the key when the list is empty). */
function withList(draft: WorkflowDraft, kind: 'routes' | 'loops', list: unknown[]): WorkflowDraft {
  const { [kind]: _old, ...rest } = draft.definition;
  return { ...draft, definition: list.length === 0 ? rest : { ...rest, [kind]: list } };
}

/**
 * Adds a conditional branch `from → to`: a new branch of the route out of `from` when there is one
 * (a node has one route), else a new route whose `otherwise` is END. Answers the draft and the route's index.
 */
export function addRouteBranch(draft: WorkflowDraft, from: string, to: string): { draft: WorkflowDraft; index: number } {
  const routes = routesOf(draft.definition);
  const existing = routes.findIndex((route) => isRecord(route) && route.from === from && Array.isArray(route.when));
  const branch = { if: firstCondition(draft), to };
  if (existing >= 0) {
    const route = routes[existing] as unknown as DeclarativeRoute;
    const next = routes.map((item, index) => (index === existing ? { ...route, when: [...route.when, branch] } : item));
    return { draft: withList(draft, 'routes', next), index: existing };
  }
  return { draft: withList(draft, 'routes', [...routes, { from, when: [branch], otherwise: 'END' }]), index: routes.length };
}

/** Adds a bounded loop back from `from` to `to` (exit END, at most 3 iterations, a condition to fill in). */
export function addLoop(draft: WorkflowDraft, from: string, to: string): { draft: WorkflowDraft; index: number } {
  const loops = loopsOf(draft.definition);
  const loop: BoundedLoop = { from, to, exit: 'END', while: firstCondition(draft), maxIterations: 3 };
  return { draft: withList(draft, 'loops', [...loops, loop]), index: loops.length };
}

/** Replaces route or loop `index` with `value`, or removes it when `value` is undefined. */
export function setConditional(
  draft: WorkflowDraft,
  kind: 'routes' | 'loops',
  index: number,
  value: unknown | undefined,
): WorkflowDraft {
  const list = kind === 'routes' ? routesOf(draft.definition) : loopsOf(draft.definition);
  return withList(
    draft,
    kind,
    value === undefined ? list.filter((_, at) => at !== index) : list.map((item, at) => (at === index ? value : item)),
  );
}

/** Removes the routes and loops that start at, end at or exit to `name` (a node being deleted). */
export function withoutConditionalsOf(draft: WorkflowDraft, name: string): WorkflowDraft {
  const targets = (value: unknown) => (Array.isArray(value) ? value : [value]);
  const routes = routesOf(draft.definition).flatMap((route) => {
    if (!isRecord(route) || route.from === name) return [];
    if (!Array.isArray(route.when)) return targets(route.targets).includes(name) ? [] : [route];
    const when = route.when.filter((branch) => !(isRecord(branch) && targets(branch.to).includes(name)));
    if (when.length === 0 || targets(route.otherwise).includes(name)) return [];
    return [{ ...route, when }];
  });
  const loops = loopsOf(draft.definition).filter(
    (loop) => !(isRecord(loop) && (loop.from === name || loop.to === name || loop.exit === name)),
  );
  return withList(withList(draft, 'routes', routes), 'loops', loops);
}

/** The kind of value an operator takes: what the editor offers and what the check requires. */
export function operatorValueKind(operator: Operator): 'json' | 'number' | 'boolean' | 'list' | 'text' {
  if (operator === 'in') return 'list';
  if (operator === 'exists' || operator === 'isEmpty') return 'boolean';
  if (operator === 'matches') return 'text';
  if (operator.startsWith('greater') || operator.startsWith('less')) return 'number';
  return 'json';
}

/** What a field problem says: a message id, with the names it needs. */
export interface FieldProblem {
  id: MessageId;
  values?: Record<string, string>;
}

/**
 * The problems of a condition by field path (`field`, `value`, `all.1.field`…), with the rules of
 * the SDK's `conditionSchema` (a dotted path, exactly one operator, its value's type, a regular
 * expression that compiles) and of `createWorkflow` (the path's first segment names a state field).
 */
export function conditionProblems(condition: unknown, stateFields: readonly string[], path = ''): Map<string, FieldProblem> {
  const problems = new Map<string, FieldProblem>();
  const at = (name: string) => (path ? `${path}.${name}` : name);
  if (!isRecord(condition)) {
    problems.set(path, { id: 'flow.condition.invalid' });
    return problems;
  }
  for (const group of ['all', 'any'] as const)
    if (group in condition) {
      const parts = condition[group];
      if (!Array.isArray(parts) || parts.length === 0) problems.set(at(group), { id: 'flow.condition.emptyGroup' });
      else
        parts.forEach((part, index) => {
          for (const [key, problem] of conditionProblems(part, stateFields, at(`${group}.${index}`))) problems.set(key, problem);
        });
      return problems;
    }
  if ('not' in condition) return conditionProblems(condition.not, stateFields, at('not'));
  const field = typeof condition.field === 'string' ? condition.field : '';
  if (!field) problems.set(at('field'), { id: 'flow.condition.fieldMissing' });
  else if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(field)) problems.set(at('field'), { id: 'flow.condition.fieldPath' });
  else if (!stateFields.includes(field.split('.')[0] ?? ''))
    problems.set(at('field'), { id: 'flow.condition.fieldUnknown', values: { field } });
  const present = operators.filter((operator) => condition[operator] !== undefined);
  if (present.length !== 1) {
    problems.set(at('operator'), { id: 'flow.condition.oneOperator' });
    return problems;
  }
  const operator = present[0] as Operator;
  const value = condition[operator];
  const kind = operatorValueKind(operator);
  if (kind === 'number' && (typeof value !== 'number' || !Number.isFinite(value)))
    problems.set(at('value'), { id: 'flow.condition.number' });
  if (kind === 'boolean' && typeof value !== 'boolean') problems.set(at('value'), { id: 'flow.condition.boolean' });
  if (kind === 'list' && !Array.isArray(value)) problems.set(at('value'), { id: 'flow.condition.list' });
  if (kind === 'text') {
    try {
      // RE2 accepts less than JavaScript (no back-references, no look-around): the server's check has the last word.
      if (typeof value !== 'string' || /\\[1-9]|\(\?[=!<]/.test(value)) throw new Error('not RE2');
      new RegExp(value);
    } catch {
      problems.set(at('value'), { id: 'flow.condition.pattern' });
    }
  }
  return problems;
}

/** Whether `name` is somewhere a route, loop or edge may go: a node of the definition, or END. */
export function isTarget(draft: WorkflowDraft, name: unknown): boolean {
  return name === 'END' || nodesOf(draft.definition).some((node) => node.name === name);
}

/** The problems of a loop's own fields (`to`, `exit`, `maxIterations`) by field name; its condition's come from `conditionProblems`. */
export function loopProblems(draft: WorkflowDraft, loop: Record<string, unknown>): Map<string, FieldProblem> {
  const problems = new Map<string, FieldProblem>();
  if (loop.to === 'END' || !isTarget(draft, loop.to)) problems.set('to', { id: 'flow.loop.toMissing' });
  if (!isTarget(draft, loop.exit)) problems.set('exit', { id: 'flow.target.missing' });
  const bound = loop.maxIterations;
  if (typeof bound !== 'number' || !Number.isInteger(bound) || bound < 1)
    problems.set('maxIterations', { id: 'flow.loop.bound' });
  return problems;
}

/**
 * The server's issues (a refused save or publish, a check) under one definition path, by the rest
 * of their path: `definition.routes.0.when.1.if.field` under `definition.routes.0` is `when.1.if.field`.
 */
export function serverIssuesUnder(issues: readonly DraftIssue[], prefix: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const issue of issues) {
    const path = issue.path.replace(/^config\./, '');
    if (path !== prefix && !path.startsWith(`${prefix}.`)) continue;
    const rest = path.slice(prefix.length + 1);
    found.set(rest, [...(found.get(rest) ?? []), issue.message]);
  }
  return found;
}

/** Deletes a node with everything that only it used (`deleteNode`) and the routes and loops that name it. */
export function deleteNodeEverywhere(draft: WorkflowDraft, name: string): WorkflowDraft {
  return withoutConditionalsOf(deleteNode(draft, name), name);
}

/**
 * Removes what conditional arrows stand for: a branch's arrow its branch (a route left without
 * branches goes), an `otherwise` or named route's arrow the whole route, a loop's arrow the loop.
 */
export function removeConditionalArrows(draft: WorkflowDraft, arrowIds: readonly string[]): WorkflowDraft {
  const dropRoutes = new Set<number>();
  const dropBranches = new Map<number, Set<number>>();
  const dropLoops = new Set<number>();
  for (const id of arrowIds) {
    const match = /^(route|loop)-(\d+)-(w(\d+)-)?/.exec(id);
    if (!match) continue;
    const index = Number(match[2]);
    if (match[1] === 'loop') dropLoops.add(index);
    else if (match[4] !== undefined) dropBranches.set(index, new Set([...(dropBranches.get(index) ?? []), Number(match[4])]));
    else dropRoutes.add(index);
  }
  const routes = routesOf(draft.definition).flatMap((route, index) => {
    if (dropRoutes.has(index)) return [];
    const branches = dropBranches.get(index);
    if (!branches || !isRecord(route) || !Array.isArray(route.when)) return [route];
    const when = route.when.filter((_, at) => !branches.has(at));
    return when.length === 0 ? [] : [{ ...route, when }];
  });
  const loops = loopsOf(draft.definition).filter((_, index) => !dropLoops.has(index));
  return withList(withList(draft, 'routes', routes), 'loops', loops);
}

/** A new input node: its question is written in its panel (an empty one is shown as a problem at the field). */
export function newInputNode(name: string): Record<string, unknown> {
  return { name, kind: 'input', question: '' };
}
