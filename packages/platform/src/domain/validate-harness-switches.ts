import type { AgentDraft, CapabilitySelection } from './agent-draft.js';

/** One problem: where, a stable code and a sentence (the shape of a `DraftIssue`). */
interface SwitchIssue {
  path: string;
  code: string;
  message: string;
}

/** Whether a capability selection gives its role a tool a script could call. */
function hasCallableTools(selection: CapabilitySelection): boolean {
  return (
    selection.builtIn.length > 0 ||
    selection.tools.length > 0 ||
    selection.mcpServers.length > 0 ||
    selection.remoteAgents.length > 0
  );
}

/**
 * The problems of a draft's code orchestration switch (N-15, ADR 0032) that its schema cannot
 * say: switched on for an agent none of whose roles has a tool, where `run_script` could call
 * nothing (memory's tools and a Plan–Executor's delegations count as tools).
 */
export function harnessSwitchIssues(draft: AgentDraft, mode: 'react' | 'plan-executor'): SwitchIssue[] {
  const issues: SwitchIssue[] = [];
  if (draft.execution.codeOrchestration?.enabled) {
    const selections =
      mode === 'react'
        ? [draft.capabilities]
        : [...(draft.planner ? [draft.planner.capabilities] : []), ...draft.executors.map((role) => role.capabilities)];
    const callable = draft.memory?.enabled === true || mode === 'plan-executor' || selections.some(hasCallableTools);
    if (!callable) {
      issues.push({
        path: 'execution.codeOrchestration.enabled',
        code: 'nothing-to-orchestrate',
        message: 'A script calls the agent’s tools, and this agent has none: give it a tool, or switch scripts off.',
      });
    }
  }
  return issues;
}
