import { z } from '@hono/zod-openapi';

/** The label every scripted answer starts with, so nobody mistakes the demo model for a real one. */
export const scriptedAnswerLabel = '[Scripted demo] ';

const toolCall = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

/**
 * One turn of a scripted agent: call tools (more than one call is one parallel batch; an executor
 * role's name delegates to it), or answer with text. `{{input}}` is the task's message,
 * `{{results}}` every tool result of the task so far, `{{result1}}` … the first, second … of them.
 * `delayMs` makes the model "think" first (the demo's crash button needs a run that lasts).
 */
export const demoStepSchema = z
  .strictObject({
    toolCalls: z.array(toolCall).min(1).max(8).optional(),
    text: z.string().min(1).max(20_000).optional(),
    delayMs: z.number().int().min(0).max(60_000).optional(),
  })
  .refine((step) => step.toolCalls !== undefined || step.text !== undefined, 'A step calls tools or answers with text.')
  .openapi('DemoScriptStep');

/**
 * A script of the offline demo model: the steps of the agent (or executor role) whose system
 * prompt contains `whenSystemContains` and whose task contains `whenInputContains` (both optional,
 * case-insensitive; the first script that matches plays). Step n is played on the task's n-th
 * model call since its latest user message, so a resumed run replays to the same step.
 */
export const demoScriptSchema = z
  .strictObject({
    whenSystemContains: z.string().min(1).max(500).optional(),
    whenInputContains: z.string().min(1).max(500).optional(),
    steps: z.array(demoStepSchema).min(1).max(20),
  })
  .openapi('DemoScript');

export type DemoScript = z.output<typeof demoScriptSchema>;
export type DemoStep = z.output<typeof demoStepSchema>;
