import { z } from 'zod';
import type { RunEvent } from '../engine/agent/run-events.js';
import { teamEventPayloadSchemas } from '../engine/workflow/team-events.js';
import type { WorkflowEvent, WorkflowRunEvent } from '../engine/workflow/workflow-events.js';
import {
  agentRunResultSchema,
  contextReportSchema,
  count,
  failureSchema,
  finishReasonSchema,
  modelIdentitySchema,
  modelResponseSchema,
  runLineageSchema,
  type SameShape,
  usageSchema,
  workflowInterruptSchema,
  workflowResultSchema,
  workflowTaskFailureSchema,
} from './event-schema-parts.js';
import type { HostedRunEvent } from './run-client.js';

/**
 * The zod schemas of every run event: the single description of the run contract that hosts
 * stream (the platform's SSE stream, its OpenAPI document and the console's types are generated
 * from it), rendered to `packages/sdk/schemas/run-event.schema.json` by `npm run schemas`.
 *
 * The TypeScript unions (`AgentRunEvent`, `WorkflowEvent`) stay where the engines emit them; this
 * module holds one schema per event type, keyed by the union's `type`s, so an event type without a
 * schema, a schema without an event type, or a field that differs either way fails the type check
 * (`satisfies` the mapped type below, and `SameShape` the other way). Objects are strict: an event
 * that carries a field its schema lacks fails to parse (`run-event-schema.test.ts` parses events of
 * real ReAct, Plan–Executor and workflow runs).
 */

/** One event's schema: its `type`, the run it belongs to, and its own fields. */
function event<Type extends string, Shape extends z.ZodRawShape>(type: Type, description: string, shape: Shape) {
  return z.strictObject({ type: z.literal(type), runId: z.string(), ...shape }).describe(description);
}

/** An agent run's event: with the journal sequence of the entry it reports (S-7). */
function agentEvent<Type extends RunEvent['type'], Shape extends z.ZodRawShape>(type: Type, description: string, shape: Shape) {
  return event(type, description, { ...shape, sequence: count() });
}

const operation = { taskId: z.string(), operationId: z.string(), toolName: z.string() };

/** The schema of each agent run event type (`AgentRunEvent`, from `engine/agent/run-events.ts`). */
const agentEventSchemas = {
  'run-start': agentEvent('run-start', 'The run started, or was resumed (`resumed`) by the owner of `epoch`.', {
    sessionId: z.string(),
    agentName: z.string(),
    resumed: z.boolean(),
    epoch: count(),
  }),
  'loop-start': agentEvent('loop-start', 'A business loop of a task began; `loopsUsed` counts the whole run.', {
    taskId: z.string(),
    loop: count(),
    loopsUsed: count(),
  }),
  'model-call-start': agentEvent('model-call-start', 'A model attempt started (live only: not in the journal).', {
    taskId: z.string(),
    loop: count(),
    attempt: count(),
    provider: z.string(),
    modelId: z.string(),
  }),
  'model-call-fail': agentEvent('model-call-fail', 'A model attempt failed; `willRetry` says whether another follows.', {
    taskId: z.string(),
    loop: count(),
    attempt: count(),
    failure: failureSchema,
    willRetry: z.boolean(),
  }),
  'model-call-finish': agentEvent('model-call-finish', 'A complete model response: the decision of the loop.', {
    taskId: z.string(),
    loop: count(),
    finishReason: finishReasonSchema,
    usage: usageSchema,
    toolCalls: count(),
    response: modelResponseSchema.optional(),
    model: modelIdentitySchema.optional(),
    context: contextReportSchema.optional(),
  }),
  'model-fallback': agentEvent('model-fallback', 'The run moved to the next model of its fallback chain (N-15).', {
    taskId: z.string(),
    loop: count(),
    from: modelIdentitySchema,
    to: modelIdentitySchema,
    failure: failureSchema,
  }),
  'tool-call-start': agentEvent('tool-call-start', 'An attempt of a tool call is about to run (its intent is saved).', {
    ...operation,
    toolCallId: z.string().optional(),
    attempt: count(),
    arguments: z.unknown(),
  }),
  'tool-call-fail': agentEvent('tool-call-fail', 'A tool attempt failed; the next starts at `retryAt` (epoch ms).', {
    ...operation,
    attempt: count(),
    failure: failureSchema,
    retryAt: z.number(),
  }),
  'tool-call-finish': agentEvent('tool-call-finish', 'A tool call ended; `content` is what the model reads.', {
    ...operation,
    status: z.enum(['succeeded', 'failed']),
    content: z.string(),
    failure: failureSchema.optional(),
  }),
  'batch-join': agentEvent('batch-join', "Every call of the loop's batch has a result.", { taskId: z.string(), loop: count() }),
  'approval-request': agentEvent('approval-request', 'A call waits for approval (K-5): decide it with `decideApproval`.', {
    taskId: z.string(),
    approvalId: z.string(),
    toolName: z.string(),
    arguments: z.unknown(),
    reason: z.string(),
  }),
  'approval-decide': agentEvent('approval-decide', 'An approval was decided.', {
    approvalId: z.string(),
    approved: z.boolean(),
    decidedBy: z.string(),
  }),
  'elicitation-request': agentEvent(
    'elicitation-request',
    "An MCP server asked the run's user a question (ADR 0038): answer it with `answerElicitation`.",
    {
      ...operation,
      elicitationId: z.string(),
      server: z.string(),
      message: z.string(),
      mode: z.enum(['form', 'url']),
      requestedSchema: z.record(z.string(), z.unknown()).optional(),
      url: z.string().optional(),
    },
  ),
  'elicitation-answer': agentEvent('elicitation-answer', 'An elicitation was answered (accept, decline or cancel).', {
    elicitationId: z.string(),
    action: z.enum(['accept', 'decline', 'cancel']),
    answeredBy: z.string(),
  }),
  'supplement-accept': agentEvent('supplement-accept', 'A supplement reached the run.', { supplementId: z.string() }),
  'supplement-consume': agentEvent('supplement-consume', "Supplements entered the entry role's context.", {
    taskId: z.string(),
    supplementIds: z.array(z.string()),
  }),
  'task-start': agentEvent('task-start', 'A delegation became an executor task.', {
    taskId: z.string(),
    role: z.string(),
    parentTaskId: z.string(),
  }),
  'task-finish': agentEvent('task-finish', "An executor task ended; its result goes to the planner's batch.", {
    taskId: z.string(),
    role: z.string(),
    status: z.enum(['succeeded', 'failed']),
    failure: failureSchema.optional(),
  }),
  'answer-reject': agentEvent('answer-reject', "A final answer did not match the role's output schema (O-1).", {
    taskId: z.string(),
    loop: count(),
  }),
  'stop-request': agentEvent('stop-request', 'Someone asked the run to stop (S-5).', {
    reason: z.string().optional(),
    requestedBy: z.string(),
  }),
  'run-finish': agentEvent('run-finish', 'The run ended: its result.', { result: agentRunResultSchema }),
} satisfies { [Type in RunEvent['type']]: z.ZodType<Extract<RunEvent, { type: Type }>> };

type AgentEventSchema = (typeof agentEventSchemas)[RunEvent['type']];

/** Every agent run event: a union discriminated by `type`. */
export const agentRunEventSchema = z
  .discriminatedUnion('type', Object.values(agentEventSchemas) as [AgentEventSchema, ...AgentEventSchema[]])
  .meta({ id: 'AgentRunEvent', description: 'An event of an agent run, with its journal sequence.' });

const task = { step: count(), taskId: z.string(), node: z.string() };

/** The schema of each workflow event type (`WorkflowEvent`, from `engine/workflow/workflow-events.ts`), as emitted live. */
const workflowEventSchemas = {
  'workflow-start': event('workflow-start', 'The run started, or was resumed (`resumed`) by the owner of `epoch`.', {
    sessionId: z.string(),
    resumed: z.boolean(),
    epoch: count(),
    continues: runLineageSchema.optional(),
  }),
  'step-start': event('step-start', 'A superstep began with these tasks (live only).', {
    step: count(),
    tasks: z.array(z.strictObject({ taskId: z.string(), node: z.string() })),
  }),
  'task-start': event('task-start', 'A task began (live only).', task),
  'task-finish': event('task-finish', 'A task ended: its writes are saved, or it failed, or it waits on `interrupt()`.', {
    ...task,
    status: z.enum(['succeeded', 'failed', 'interrupted']),
    failure: workflowTaskFailureSchema.optional(),
  }),
  'task-retry': event('task-retry', 'An attempt of the task failed; another starts after `waitMs`.', {
    ...task,
    attempt: count(),
    failure: workflowTaskFailureSchema,
    waitMs: z.number(),
  }),
  'loop-limit': event('loop-limit', 'A loop ended by its `maxIterations`, its condition still true (live only).', {
    step: count(),
    taskId: z.string(),
    loop: z.string(),
    iterations: count(),
  }),
  'agent-event': event('agent-event', "An event of an agent node's inner run (live only; follow `agentRunId` for all).", {
    taskId: z.string(),
    node: z.string(),
    event: agentRunEventSchema,
  }),
  'agent-invoke': event('agent-invoke', "An agent node's task is bound to its inner agent run (R-6).", {
    ...task,
    agentRunId: z.string(),
    agentSessionId: z.string(),
  }),
  'stop-request': event('stop-request', 'Someone asked the run to stop (S-5).', {
    reason: z.string().optional(),
    requestedBy: z.string(),
  }),
  'workflow-interrupt': event(
    'workflow-interrupt',
    "The run waits: paused on `interrupt()` calls (live only), or an input node asked a person (saved: its `value` is the input's request — question, schema, choices, deadline; issue 36).",
    {
      interrupts: z.array(workflowInterruptSchema),
    },
  ),
  'workflow-finish': event('workflow-finish', 'The run ended: its result.', { result: workflowResultSchema }),
  ...teamEventSchemas(),
} satisfies { [Type in WorkflowEvent['type']]: z.ZodType<Extract<WorkflowEvent, { type: Type }>> };

/**
 * The team events (N-12): the payload a team task saves in its writes (`team-events.ts`, the one
 * description of each), with the identity of that task. Saved facts: `readEvents` and `follow`
 * give them with the sequence of the entry that saved them.
 */
function teamEventSchemas() {
  const descriptions: { [Type in keyof typeof teamEventPayloadSchemas]: string } = {
    'team-turn': 'A team member took a turn: its message joined the shared transcript.',
    'speaker-selected': 'The next speaker of a team was chosen (saved before it speaks).',
    handoff: 'A member handed the ownership of the final answer to another (N-12).',
    'ledger-updated': "An orchestrator's task or progress ledger changed (its stall and re-plan counters included).",
    'vote-cast': 'A member of a vote cast its vote (saved once: a resumed run never casts it again).',
    'task-claimed': 'A member claimed a task of the task board, exclusively (the claim survives a crash).',
    'mail-sent': "A member wrote to another member's mailbox (data, never the user's authority).",
    'team-stop': 'The team stopped, with its typed reason and the conditions that held.',
  };
  const identity = { ...task, runId: z.string() };
  return Object.fromEntries(
    Object.entries(teamEventPayloadSchemas).map(([type, schema]) => [
      type,
      schema.extend(identity).describe(descriptions[type as keyof typeof descriptions]),
    ]),
  ) as { [Type in keyof typeof teamEventPayloadSchemas]: TeamEventSchema<(typeof teamEventPayloadSchemas)[Type]> };
}
type TeamEventSchema<Schema> =
  Schema extends z.ZodObject<infer Shape extends z.ZodRawShape, infer Config>
    ? z.ZodObject<z.core.util.Extend<Shape, typeof task & { runId: z.ZodString }>, Config>
    : never;

type WorkflowEventSchemas = typeof workflowEventSchemas;
type WorkflowEventSchema = WorkflowEventSchemas[WorkflowEvent['type']];

/** Every workflow event as `workflow.run().events()` yields it (without a sequence). */
export const workflowEventSchema = z.discriminatedUnion(
  'type',
  Object.values(workflowEventSchemas) as [WorkflowEventSchema, ...WorkflowEventSchema[]],
);

/** Each workflow event type's schema with the journal sequence of the entry it reports. */
type WithSequence<Schema> =
  Schema extends z.ZodObject<infer Shape extends z.ZodRawShape, infer Config>
    ? z.ZodObject<z.core.util.Extend<Shape, { sequence: z.ZodNumber }>, Config>
    : never;
type WorkflowRunEventSchemas = { [Type in keyof WorkflowEventSchemas]: WithSequence<WorkflowEventSchemas[Type]> };
type WorkflowRunEventSchema = WorkflowRunEventSchemas[WorkflowEvent['type']];
const workflowRunEventSchemas = Object.fromEntries(
  Object.entries(workflowEventSchemas).map(([type, schema]) => [type, schema.extend({ sequence: count() })]),
) as WorkflowRunEventSchemas;

/** Every workflow event as `RunClient.readEvents` and `follow` give it: with its journal sequence. */
export const workflowRunEventSchema = z
  .discriminatedUnion('type', Object.values(workflowRunEventSchemas) as [WorkflowRunEventSchema, ...WorkflowRunEventSchema[]])
  .meta({ id: 'WorkflowRunEvent', description: 'An event of a workflow run, with its journal sequence.' });

/**
 * Every event a host reads of a run (`HostedRunEvent`: `RunClient.readEvents` and `follow`, the
 * platform's event stream): an agent run's or a workflow run's, each a union discriminated by
 * `type`. Three types exist in both (`task-start`, `task-finish`, `stop-request`) with different
 * fields; the run's kind says which union an event belongs to.
 */
export const runEventSchema = z
  .union([agentRunEventSchema, workflowRunEventSchema])
  .meta({ id: 'RunEvent', title: 'AgentLoom run event', description: 'An event of an agent run or of a workflow run.' });

/** The other direction of the `satisfies` checks above: each TypeScript event fits its schema. */
type FitsSchemas<Event extends { type: string }, Schemas extends { [Type in Event['type']]: z.ZodType }> = [
  { [Type in Event['type']]: SameShape<z.output<Schemas[Type]>, Extract<Event, { type: Type }>> }[Event['type']],
] extends [true]
  ? true
  : false;

/** Compiles only while every event type of both engines and the host's union has a schema of the same shape. */
export const runEventSchemasMatchTheirTypes: [
  FitsSchemas<RunEvent, typeof agentEventSchemas>,
  FitsSchemas<WorkflowEvent, typeof workflowEventSchemas>,
  SameShape<z.output<typeof agentRunEventSchema>, RunEvent>,
  SameShape<z.output<typeof workflowEventSchema>, WorkflowEvent>,
  SameShape<z.output<typeof workflowRunEventSchema>, WorkflowRunEvent>,
  SameShape<z.output<typeof runEventSchema>, HostedRunEvent>,
] = [true, true, true, true, true, true];

/** The JSON Schema file of the run events (`packages/sdk/schemas/run-event.schema.json`), as `npm run schemas` writes it. */
export function renderRunEventSchema(): string {
  return `${JSON.stringify(z.toJSONSchema(runEventSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' }), null, 2)}\n`;
}
