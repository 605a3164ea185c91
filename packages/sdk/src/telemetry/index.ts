export { createAgentTracing, type TracingOptions } from './agent-tracing.js';
