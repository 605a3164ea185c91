import type { AgentDraft } from './agent-draft.js';
import { referencedResources } from './agent-draft.js';
import { contextFeatureIssues } from './validate-context-features.js';
import { harnessSwitchIssues } from './validate-harness-switches.js';

/** One problem of a draft: where, a stable code and a sentence. */
export interface DraftIssue {
  path: string;
  code: string;
  message: string;
}

/** What validation needs to know about the space, read before it runs (no I/O in here). */
export interface DraftLookups {
  resources: ReadonlyMap<string, { type: string; state: 'active' | 'archived'; latestVersion: number }>;
  connections: ReadonlyMap<
    string,
    { state: 'active' | 'archived'; provider: string; hasActiveKey: boolean; models: ReadonlyMap<string, { enabled: boolean }> }
  >;
}

/**
 * Checks a draft for publishing and reports every problem at once (never only the first): the
 * mode's required parts, the model connection (usable key, catalogued model), and every
 * referenced resource (exists in this space, right type, active, has a version). Ids of other
 * spaces are "not found", exactly like ids that do not exist.
 */
export function validateAgentDraft(draft: AgentDraft, mode: 'react' | 'plan-executor', lookups: DraftLookups): DraftIssue[] {
  const issues: DraftIssue[] = [];
  const issue = (path: string, code: string, message: string) => issues.push({ path, code, message });

  const checkModel = (path: string, choice: { connectionId: string; modelId: string }) => {
    const connection = lookups.connections.get(choice.connectionId);
    if (!connection) issue(`${path}.connectionId`, 'not-found', 'No such model connection in this space.');
    else {
      if (connection.state !== 'active') issue(`${path}.connectionId`, 'archived', 'The model connection is archived.');
      if (!connection.hasActiveKey && connection.provider !== 'offline-demo')
        issue(`${path}.connectionId`, 'no-active-key', 'The model connection has no active key.');
      const model = connection.models.get(choice.modelId);
      if (!model) issue(`${path}.modelId`, 'not-in-catalogue', 'The model is not in the connection’s catalogue.');
      else if (!model.enabled) issue(`${path}.modelId`, 'model-disabled', 'The model is disabled in the catalogue.');
    }
  };
  if (!draft.model) issue('model', 'required', 'Choose a model connection and model.');
  else {
    checkModel('model', draft.model);
    for (const [index, fallback] of (draft.model.fallbacks ?? []).entries()) checkModel(`model.fallbacks.${index}`, fallback);
  }
  issues.push(...contextFeatureIssues(draft.context), ...harnessSwitchIssues(draft, mode));

  if (mode === 'react') {
    if (!draft.prompt) issue('prompt', 'required', 'A ReAct agent needs a prompt.');
    if (draft.planner) issue('planner', 'wrong-mode', 'A ReAct agent has no planner (the mode is fixed at creation).');
    if (draft.executors.length > 0)
      issue('executors', 'wrong-mode', 'A ReAct agent has no executors (the mode is fixed at creation).');
  } else {
    if (!draft.planner) issue('planner', 'required', 'A Plan–Executor agent needs a planner.');
    if (draft.executors.length === 0) issue('executors', 'required', 'A Plan–Executor agent needs at least one executor.');
    if (draft.prompt) issue('prompt', 'wrong-mode', 'A Plan–Executor agent sets its prompts on the planner and executors.');
    const names = new Set<string>();
    draft.executors.forEach((role, index) => {
      if (names.has(role.name)) issue(`executors.${index}.name`, 'duplicate', `Two executors are named "${role.name}".`);
      names.add(role.name);
    });
  }

  for (const reference of referencedResources(draft)) {
    const resource = lookups.resources.get(reference.resourceId);
    if (!resource) issue(reference.path, 'not-found', 'No such resource in this space.');
    else if (resource.type !== reference.type)
      issue(reference.path, 'wrong-type', `Expected a ${reference.type}, found a ${resource.type}.`);
    else if (resource.state !== 'active') issue(reference.path, 'archived', 'The resource is archived.');
    else if (resource.latestVersion < 1) issue(reference.path, 'no-version', 'The resource has no version yet.');
  }
  draft.permissions?.rules.forEach((rule, index, rules) => {
    const same = rules.findIndex(
      (other) => other.tool === rule.tool && JSON.stringify(other.arguments ?? {}) === JSON.stringify(rule.arguments ?? {}),
    );
    if (same < index)
      issue(
        `permissions.rules.${index}`,
        'duplicate',
        `Rule ${same + 1} already matches the same calls of "${rule.tool}"; keep one (of two, deny beats ask beats allow).`,
      );
  });
  if (draft.execution.maxParallelExecutors !== undefined && mode === 'react') {
    issue('execution.maxParallelExecutors', 'wrong-mode', 'Only Plan–Executor agents have executors.');
  }
  return issues;
}
