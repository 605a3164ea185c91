import { z } from 'zod';
import type { Message } from '../../core/messages.js';
import type { ToolDefinition } from '../../model/language-model.js';
import {
  contextEntrySchema,
  messageShapingSchema,
  uniqueBy,
  userCommandSchema,
} from './context-features/context-feature-options.js';

/** Counts the tokens of what would be sent to the model; pluggable because tokenizers differ by model. */
export type TokenCounter = (input: { system: string; messages: readonly Message[]; tools: readonly ToolDefinition[] }) => number;

/**
 * The context settings of an agent (C-1, C-2, H-5…H-11). Compression is on when the model's
 * context window is known (`windowTokens`).
 */
export const contextOptionsSchema = z
  .object({
    /** Finished runs of the session a new run sees in full; older ones as inputs and outcomes (C-1). */
    historyRuns: z.number().int().min(0).default(2),
    /** The model's context window, in tokens. Without it, no compression and no window check. */
    windowTokens: z.number().int().positive().optional(),
    /** Compress when the context to send passes this share of the window (C-2). */
    compressionThreshold: z.number().gt(0).max(1).default(0.8),
    /** Extra instructions for the compression agent, sent as its user message (H-6). */
    compressionPrompt: z.string().optional(),
    /** The user's own instructions for this agent, appended at the end of the entry role's context (N-15). */
    userInstructions: z.string().max(20_000).optional(),
    /** Context entries: constant, or triggered by keywords or a pattern in the last messages (N-15). */
    entries: uniqueBy(contextEntrySchema, 'id', 200).optional(),
    /** The most tokens the applying entries may take; the entries that do not fit are left out, in order. */
    entryBudgetTokens: z.number().int().positive().optional(),
    /** Message shaping, one mode or by provider name (N-15); default `none`. */
    messageShaping: messageShapingSchema.optional(),
    /** User commands: a new run's input `/name …` expands to the stored prompt (N-15). */
    commands: uniqueBy(userCommandSchema, 'name', 100).optional(),
    /** Replaces the default estimate (about four characters per token). */
    countTokens: z.custom<TokenCounter>((value) => typeof value === 'function', 'must be a function').optional(),
  })
  .strict();

/** Context settings as a caller writes them. */
export type ContextOptions = z.input<typeof contextOptionsSchema>;

/** Context settings with defaults filled in. */
export type ResolvedContextOptions = z.output<typeof contextOptionsSchema>;
