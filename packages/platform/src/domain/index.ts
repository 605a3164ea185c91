export {
  type AgentDraft,
  agentDraftSchema,
  agentDraftSchemaVersion,
  builtInCapabilities,
  type CapabilitySelection,
  emptyAgentDraft,
  type PromptSource,
  referencedResources,
} from './agent-draft.js';
export {
  appDeletingError,
  ConflictError,
  DomainError,
  type DomainErrorKind,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  notFoundError,
  PreconditionFailedError,
  PreconditionRequiredError,
  TooLargeError,
  UpstreamFailedError,
  UpstreamTimeoutError,
  ValidationError,
} from './errors.js';
export { type DraftIssue, type DraftLookups, validateAgentDraft } from './validate-agent-draft.js';
export {
  emptyWorkflowDraft,
  validateWorkflowDraft,
  type WorkflowDraft,
  type WorkflowDraftLookups,
  workflowDraftSchema,
  workflowDraftSchemaVersion,
  workflowReferences,
} from './workflow-draft.js';
export {
  type PinnedTeam,
  type TeamBinding,
  teamBindingSchema,
  teamDefinitionOf,
  validateTeamBinding,
} from './workflow-team.js';
