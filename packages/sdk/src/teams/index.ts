/**
 * Teams (N-12): multi-agent topologies as constructs on the workflow engine. A team compiles to a
 * workflow whose state holds all of its coordination (transcript, owner, counters, ledgers), so a
 * crash resumes it mid-conversation with no turn redone. `createTeam` builds one from a
 * `TeamDefinition` (data; `@agentloom/sdk/schemas/team-definition.schema.json`).
 */

export { type HandoffMember, type HandoffTeamOptions, handoff } from './handoff-team.js';
export { DEFAULT_MAX_TURNS, Team, type TeamConfig, type TeamOutput } from './team.js';
export type { TeamState } from './team-state.js';
export {
  type PrivateNote,
  type TeamMember,
  type TeamMessage,
  type TeamStopReason,
  type TeamTermination,
  teamStopReasonSchema,
} from './team-types.js';
export {
  and,
  checkTermination,
  costBudget,
  ExternalStop,
  externalStop,
  handoffToUser,
  maxMessages,
  maxTurns,
  or,
  type TerminationCondition,
  type TerminationInput,
  terminationSchema,
  textMention,
  timeout,
  tokenBudget,
} from './termination.js';
export { type Evaluation, type EvaluatorOptimizerOptions, evaluatorOptimizer } from './topologies/evaluator-optimizer.js';
export {
  type GroupChatOptions,
  groupChat,
  type SelectorModel,
  type SpeakerFunction,
  type SpeakerView,
} from './topologies/group-chat.js';
export { type HandoffOptions, HISTORY_FILTERS, type HistoryFilter } from './topologies/handoff.js';
export { type OrchestratorOptions, orchestrator, PROGRESS_LEDGER_PROMPT, TASK_LEDGER_PROMPT } from './topologies/orchestrator.js';
export { type FoundProblem, type ReviewOptions, review } from './topologies/review.js';
export {
  type BoardTaskDefinition,
  type ClaimApproval,
  SEND_MESSAGE_TOOL,
  type TaskBoardOptions,
  taskBoard,
} from './topologies/task-board.js';
export { type VoteAggregate, type VoteOptions, type VoteOutcome, vote } from './topologies/vote.js';
export type { StepScope, Topology, TopologyIssue } from './topology.js';
