import { z } from 'zod';

/**
 * The data shapes of the context features (N-15, proposal §2.5): context entries, message shaping
 * and user commands. Kept apart from the engine so that `context-options.ts` and the definitions
 * schema share one source and a type-only importer loads nothing else.
 */

/** Names of entries and commands: letters, digits, `_`, `-` and `.`. */
const featureName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _, - and . only, 1 to 64 characters');

/** A regular expression the engine compiles once, case-insensitive; refused when it does not compile. */
const patternSchema = z
  .string()
  .min(1)
  .max(500)
  .superRefine((pattern, context) => {
    try {
      new RegExp(pattern, 'iu');
    } catch (error) {
      context.addIssue({ code: 'custom', message: `not a valid regular expression: ${(error as Error).message}` });
    }
  });

/**
 * One context entry: text that enters the model's context at its end when it applies — always
 * (`constant`), or when one of `keywords` (case-insensitive, whole text) or `pattern` occurs in the
 * last `scanMessages` messages of the role's visible context.
 */
export const contextEntrySchema = z
  .object({
    id: featureName.describe('Names the entry in the request report.'),
    content: z.string().min(1).max(20_000).describe('The text added to the context when the entry applies.'),
    constant: z.boolean().optional().describe('Always added (within the budget).'),
    keywords: z
      .array(z.string().min(1).max(200))
      .max(50)
      .optional()
      .describe('Case-insensitive words or phrases that trigger the entry.'),
    pattern: patternSchema.optional().describe('A regular expression (case-insensitive) that triggers the entry.'),
    scanMessages: z.number().int().min(1).max(100).optional().describe('How many of the last messages are searched; default 4.'),
  })
  .strict()
  .refine((entry) => entry.constant === true || (entry.keywords?.length ?? 0) > 0 || entry.pattern !== undefined, {
    message: 'an entry needs constant: true, keywords or a pattern',
  });

/**
 * How messages are shaped for a provider: `none` sends them as they are; `merge` joins adjacent
 * messages of the same role (user with user, assistant text with assistant text); `strict` merges
 * too and folds every extra system part (entries, instructions, note) into the one system prompt.
 */
export const shapingModeSchema = z.enum(['none', 'merge', 'strict']);

/** One mode for every provider, or modes by provider name (`anthropic`, `openai-compatible`, `*` for the rest). */
export const messageShapingSchema = z.union([shapingModeSchema, z.record(z.string().min(1).max(64), shapingModeSchema)]);

/** A user command: `/name rest` as a new run's input expands to `prompt` (never triggered by the model). */
export const userCommandSchema = z
  .object({
    name: featureName.describe('Typed as /name at the start of the input.'),
    description: z.string().max(500).optional(),
    prompt: z.string().min(1).max(20_000).describe('The stored prompt; {{args}} is replaced by the text after /name.'),
  })
  .strict();

/** A list whose items must have distinct `key`s. */
export function uniqueBy<T extends z.ZodType>(item: T, key: 'id' | 'name', max: number) {
  return z
    .array(item)
    .max(max)
    .superRefine((items, context) => {
      const seen = new Set<unknown>();
      items.forEach((value, index) => {
        const name = (value as Record<string, unknown>)[key];
        if (seen.has(name))
          context.addIssue({ code: 'custom', path: [index, key], message: `duplicate ${key} "${String(name)}"` });
        seen.add(name);
      });
    });
}

export type ContextEntry = z.output<typeof contextEntrySchema>;
export type ShapingMode = z.output<typeof shapingModeSchema>;
export type MessageShaping = z.output<typeof messageShapingSchema>;
export type UserCommand = z.output<typeof userCommandSchema>;
