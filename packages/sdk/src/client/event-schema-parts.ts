import { z } from 'zod';
import type { Failure, FailureKind } from '../core/failure.js';
import type { Usage } from '../core/messages.js';
import type { RunResult, TerminalReason } from '../core/run-result.js';
import type { WorkflowTaskFailure } from '../engine/workflow/nodes/workflow-node.js';
import type { WorkflowInterrupt } from '../engine/workflow/pregel/interrupt.js';
import type { LoopLimitHit, RunLineage, WorkflowTerminalReason } from '../engine/workflow/pregel/workflow-journal.js';
import type { WorkflowResult } from '../engine/workflow/workflow-events.js';
import type { FinishReason, ModelResponseMetadata } from '../model/language-model.js';

/**
 * The zod schemas of the values run events carry (results, failures, usage …), for
 * `run-event-schema.ts`. Each is checked against its TypeScript type both ways (`sameShape`), so
 * the schema and the type cannot drift apart: a field added to one only compiles when added to
 * the other.
 */

/** `T` with intersections flattened, at every depth, so that equal shapes compare as identical. */
type Normalized<T> = T extends readonly (infer Item)[]
  ? Normalized<Item>[]
  : T extends object
    ? { [Key in keyof T]: Normalized<T[Key]> }
    : T;

/**
 * `true` only when `Schema` (a zod schema's output) and `Type` are the same type: the same keys,
 * optional the same way, at every depth. (Mutual assignability is not enough: it lets either side
 * lack an optional field.)
 */
export type SameShape<Schema, Type> =
  (<Probe>() => Probe extends Normalized<Schema> ? 1 : 2) extends <Probe>() => Probe extends Normalized<Type> ? 1 : 2
    ? true
    : false;

/** A whole number: sequences, epochs, counts, token counts. */
export const count = () => z.number().int();

const failureKinds = [
  'timeout',
  'stalled',
  'connection',
  'rate-limited',
  'server',
  'incomplete-output',
  'invalid-request',
  'authentication',
  'unknown-outcome',
  'invalid-arguments',
  'unknown-tool',
  'tool-error',
  'invalid-result',
  'executor-failed',
  'denied',
] as const satisfies readonly FailureKind[];

export const failureSchema = z
  .strictObject({
    kind: z.enum(failureKinds),
    message: z.string(),
    code: z.string().optional(),
    status: count().optional(),
    errorName: z.string().optional(),
    retryAfterMs: z.number().optional(),
    retryable: z.boolean().optional(),
  })
  .meta({
    id: 'Failure',
    description: 'Why one attempt of a model or tool call failed (X-5): typed fields, never message text.',
  });

export const usageSchema = z
  .strictObject({ inputTokens: count(), outputTokens: count(), totalTokens: count() })
  .meta({ id: 'Usage', description: 'Tokens used.' });

export const modelResponseSchema = z
  .strictObject({ id: z.string().optional(), modelId: z.string().optional() })
  .describe("The provider's id of the response and the model that answered, when it gave them.");

export const modelIdentitySchema = z
  .strictObject({ provider: z.string(), modelId: z.string() })
  .meta({ id: 'ModelIdentity', description: 'A model of a fallback chain (N-15).' });

/** What one model request was made of (N-15): estimated tokens by section and the system-prefix hash. */
export const contextReportSchema = z
  .strictObject({
    sections: z.strictObject({
      system: count(),
      tools: count(),
      history: count(),
      entries: count(),
      instructions: count(),
      note: count(),
    }),
    prefixHash: z.string(),
    entries: z.array(z.string()).optional(),
    shaping: z.enum(['merge', 'strict']).optional(),
  })
  .meta({
    id: 'ContextReport',
    description:
      'Estimated tokens by section and the hash of the system prefix (system prompt and tools); a new hash means a cache miss (N-15).',
  });

export const finishReasonSchema = z.enum([
  'stop',
  'tool-calls',
  'length',
  'content-filter',
  'other',
] as const satisfies readonly FinishReason[]);

const terminalReasons = [
  'user-stop',
  'run-timeout',
  'loop-budget-exhausted',
  'invalid-tool-calls',
  'model-failed',
  'compression-failed',
  'over-window-after-compression',
  'blocked',
  'node-failed',
  'step-limit-exceeded',
  'write-conflict',
  'loop-limit-reached',
] as const satisfies readonly TerminalReason[];

const runStatusSchema = z.enum(['succeeded', 'failed', 'stopped']);

export const agentRunResultSchema = z
  .strictObject({
    runId: z.string(),
    sessionId: z.string(),
    status: runStatusSchema,
    output: z.string().optional(),
    reason: z.enum(terminalReasons).optional(),
    failure: failureSchema.optional(),
    loops: count(),
    usage: usageSchema,
    usageByModel: z.record(z.string(), usageSchema).optional(),
  })
  .meta({ id: 'AgentRunResult', description: 'How an agent run ended (S-11).' });

export const workflowTaskFailureSchema = z
  .strictObject({
    node: z.string(),
    taskId: z.string(),
    kind: z.enum([
      'tool-failed',
      'invalid-arguments',
      'invalid-result',
      'agent-failed',
      'invalid-state-update',
      'undeclared-route',
      'write-conflict',
      'loop-limit-reached',
      'node-error',
    ]),
    message: z.string(),
    failure: failureSchema.optional(),
    agentRun: z
      .strictObject({ runId: z.string(), status: runStatusSchema, reason: z.enum(terminalReasons).optional() })
      .optional(),
  })
  .meta({ id: 'WorkflowTaskFailure', description: 'Why a workflow task failed.' });

export const workflowInterruptSchema = z
  .strictObject({ id: z.string(), taskId: z.string(), node: z.string(), value: z.unknown() })
  .meta({ id: 'WorkflowInterrupt', description: 'A pending `interrupt()`: answer it with `resume` or `resumeById`.' });

export const runLineageSchema = z
  .discriminatedUnion('from', [
    z.strictObject({ runId: z.string(), from: z.literal('failure') }),
    z.strictObject({ runId: z.string(), from: z.literal('node'), node: z.string(), step: count() }),
  ])
  .meta({ id: 'RunLineage', description: 'The earlier run a continued run starts from (`continueFrom`, `rerunFrom`).' });

const loopLimitHitSchema = z.strictObject({ loop: z.string(), step: count(), iterations: count() });

const workflowTerminalReasons = [
  'user-stop',
  'run-timeout',
  'loop-budget-exhausted',
  'step-limit-exceeded',
  'node-failed',
  'write-conflict',
  'loop-limit-reached',
] as const satisfies readonly WorkflowTerminalReason[];

export const workflowResultSchema = z
  .strictObject({
    runId: z.string(),
    sessionId: z.string(),
    status: z.enum(['succeeded', 'failed', 'stopped', 'interrupted']),
    output: z.record(z.string(), z.unknown()).optional(),
    interrupts: z.array(workflowInterruptSchema).optional(),
    reason: z.enum(workflowTerminalReasons).optional(),
    failure: workflowTaskFailureSchema.optional(),
    steps: count(),
    loops: count(),
    usage: usageSchema,
    loopLimits: z.array(loopLimitHitSchema).optional(),
    continues: runLineageSchema.optional(),
  })
  .meta({ id: 'WorkflowResult', description: 'How a workflow run ended, or that it waits for a resume (`interrupted`).' });

/** Each schema above against its type, both ways: a drift in either fails the type check. */
export const partsMatchTheirTypes: [
  SameShape<z.output<typeof failureSchema>, Failure>,
  SameShape<z.output<typeof usageSchema>, Usage>,
  SameShape<z.output<typeof finishReasonSchema>, FinishReason>,
  SameShape<z.output<typeof modelResponseSchema>, ModelResponseMetadata>,
  SameShape<(typeof failureKinds)[number], FailureKind>,
  SameShape<(typeof terminalReasons)[number], TerminalReason>,
  SameShape<(typeof workflowTerminalReasons)[number], WorkflowTerminalReason>,
  SameShape<z.output<typeof agentRunResultSchema>, RunResult>,
  SameShape<z.output<typeof workflowTaskFailureSchema>, WorkflowTaskFailure>,
  SameShape<z.output<typeof workflowInterruptSchema>, WorkflowInterrupt>,
  SameShape<z.output<typeof runLineageSchema>, RunLineage>,
  SameShape<z.output<typeof loopLimitHitSchema>, LoopLimitHit>,
  SameShape<z.output<typeof workflowResultSchema>, WorkflowResult>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true];
