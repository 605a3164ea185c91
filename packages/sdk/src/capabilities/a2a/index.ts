/**
 * @module @agentloom/sdk/capabilities/a2a
 * The A2A 1.0 client (N-13): a remote agent as an executor role, a workflow node or a tool, whose
 * calls survive a crash without being sent twice (docs/a2a.md, ADR 0023). No dependency beyond
 * the global `fetch`.
 */
export { type A2AAgent, type A2AAgentOptions, a2aAgent, a2aTaskSchema } from './a2a-agent.js';
export type { A2AInputPort, A2AInputRequest } from './a2a-call.js';
export { fetchAgentCard, selectInterface } from './a2a-card.js';
export {
  A2AAuthRequiredError,
  A2ACardError,
  A2AConnectionError,
  A2AInputRequiredError,
  A2AOutcomeUnknownError,
  A2ARequestError,
  A2ATaskFailedError,
} from './a2a-errors.js';
export { A2A_PROTOCOL_VERSION, type A2AAuth } from './a2a-json-rpc.js';
export type {
  A2AAgentCard,
  A2AAgentInterface,
  A2AArtifact,
  A2AMessage,
  A2APart,
  A2AStreamResponse,
  A2ATask,
  A2ATaskState,
  A2ATaskStatus,
} from './a2a-types.js';
