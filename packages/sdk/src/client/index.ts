export type { TeamRunDescription } from './describe-team-run.js';
export {
  type CreateRunOptions,
  type HostedRunEvent,
  type Page,
  RunClient,
  type RunClientOptions,
  type RunSummary,
} from './run-client.js';
export type * from './run-description.js';
export { agentRunEventSchema, runEventSchema, workflowEventSchema, workflowRunEventSchema } from './run-event-schema.js';
