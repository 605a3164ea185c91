export type { AgentTelemetryProfile, RoleTelemetryProfile } from './agent-profile.js';
export { createAgentTracing, type RunTracing, type TracingOptions } from './agent-tracing.js';
export { GENAI_CONVENTIONS_VERSION } from './semantic-conventions.js';
export { createWorkflowTracing } from './workflow-tracing.js';
