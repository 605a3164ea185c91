import { z } from '@hono/zod-openapi';
import { demoScriptSchema } from './demo-script.js';

/** The providers a model connection may use (P-5.2). */
export const providers = ['openai-compatible', 'anthropic', 'offline-demo'] as const;
export type Provider = (typeof providers)[number];

/** Non-secret settings of a connection; frozen into release snapshots (D-P3). */
export const connectionSettingsSchema = z
  .strictObject({
    /** offline-demo: answers by rule. */
    demoReplies: z
      .array(z.strictObject({ whenInputContains: z.string().min(1).max(500), reply: z.string().min(1).max(20_000) }))
      .max(100)
      .optional(),
    /** offline-demo: scripted agents (tool calls, delegations, answers from tool results), tried before `demoReplies`. */
    demoScripts: z.array(demoScriptSchema).max(50).optional(),
    /** offline-demo: the answer when no rule matches. */
    demoFallback: z.string().max(20_000).optional(),
    /** openai-compatible: the field that carries the output limit. */
    maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
  })
  .openapi('ModelConnectionSettings');
export type ConnectionSettings = z.infer<typeof connectionSettingsSchema>;

/** One entry of a connection's model catalogue (模型目录). */
export const catalogueEntrySchema = z
  .strictObject({
    modelId: z.string().min(1).max(200),
    contextWindow: z.number().int().positive().nullable().default(null),
    supportsThinking: z.boolean().default(false),
    enabled: z.boolean().default(true),
  })
  .openapi('CatalogueModel');
