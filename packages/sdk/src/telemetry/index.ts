export { createAgentTracing, type TracingOptions } from './agent-tracing.js';
export { createWorkflowTracing } from './workflow-tracing.js';
