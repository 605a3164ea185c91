/**
 * The outer engine (D-5): workflows of complete agents and capabilities over a shared typed
 * state, run in supersteps over versioned channels (a design adapted from LangGraph's Pregel
 * engine and written here), saved as deltas in the same run store as the agent engine.
 */
export { END, START } from './channels/channel-names.js';
export {
  type AnyStateField,
  appendList,
  type FieldKind,
  type FieldName,
  type LastValueOptions,
  lastValue,
  mergeWith,
  type StateDefinition,
  type StateField,
  type StateOf,
  type UpdateOf,
} from './channels/state-fields.js';
export {
  InterruptOutsideWorkflowError,
  InvalidStateUpdateError,
  LoopLimitReachedError,
  RunNotContinuableError,
  UndeclaredRouteError,
  type WorkflowIssue,
  WorkflowValidationError,
} from './errors/workflow-errors.js';
export { type DecisionSource, type Send, send } from './graph/graph-definition.js';
export { type FunctionNodeOptions, type LoopOptions, WorkflowBuilder } from './graph/workflow-builder.js';
export {
  type InputAnswerRequest,
  type InputRequest,
  type PendingInput,
  pendingInputsOf,
} from './input/input-requests.js';
export { type AgentBinding, AgentNode, innerRunIdOf } from './nodes/agent-node.js';
export { type ArgumentSource, type CapabilityBinding, CapabilityNode } from './nodes/capability-node.js';
export { type Command, command, FunctionNode, type FunctionNodeContext, type NodeFunction } from './nodes/function-node.js';
export { InputNode, type InputNodeOptions, type InputTimeout } from './nodes/input-node.js';
export type { NodeRetryPolicy, RetryableKind } from './nodes/node-retry.js';
export type { OutputBinding } from './nodes/output-binding.js';
export type { AgentInvocationReference, WorkflowNode, WorkflowTaskFailure } from './nodes/workflow-node.js';
export { interrupt, type WorkflowInterrupt } from './pregel/interrupt.js';
export type { Durability, LoopLimitHit, RunLineage, WorkflowTerminalReason } from './pregel/workflow-journal.js';
export { Workflow, type WorkflowOptions, type WorkflowRunOptions } from './workflow.js';
export { WorkflowEventProjector } from './workflow-event-projector.js';
export type { WorkflowEvent, WorkflowResult, WorkflowRunEvent, WorkflowTeamEvent } from './workflow-events.js';
export { WorkflowRun } from './workflow-run.js';
