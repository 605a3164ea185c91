export { AgentLoomError, type AgentLoomErrorCode, hasErrorCode } from './agentloom-error.js';
export {
  type AgentIdentity,
  AgentMismatchError,
  type ConfigurationIssue,
  InvalidConfigurationError,
  InvalidIdentifierError,
  InvalidRunRequestError,
  RunInputMismatchError,
} from './configuration-error.js';
export {
  ElicitationNotFoundError,
  ElicitationNotPendingError,
  InvalidElicitationAnswerError,
} from './elicitation-errors.js';
export { ModelCallError } from './model-call-error.js';
export {
  JournalMovedError,
  OwnershipLostError,
  RunDetachedError,
  RunOwnedElsewhereError,
  StaleEpochError,
} from './ownership-errors.js';
export {
  ApprovalNotFoundError,
  InputAlreadyAnsweredError,
  InputNotFoundError,
  InvalidInputAnswerError,
  RunAlreadyExistsError,
  RunNotFinishedError,
  RunNotFoundError,
} from './run-lookup-errors.js';
export {
  RunNotActiveError,
  StoreFailureError,
  StoreFileChangedError,
  UnsupportedJournalFormatError,
} from './store-errors.js';
