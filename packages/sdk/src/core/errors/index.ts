export { AgentLoomError, type AgentLoomErrorCode, hasErrorCode } from './agentloom-error.js';
export { type ConfigurationIssue, InvalidConfigurationError, InvalidRunRequestError } from './configuration-error.js';
export { ModelCallError } from './model-call-error.js';
export { OwnershipLostError, RunOwnedElsewhereError, StaleEpochError } from './ownership-errors.js';
export { ApprovalNotFoundError, RunAlreadyExistsError, RunNotFinishedError, RunNotFoundError } from './run-lookup-errors.js';
export { RunNotActiveError, StoreFailureError, UnsupportedJournalFormatError } from './store-errors.js';
