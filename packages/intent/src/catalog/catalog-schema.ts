import { z } from 'zod';

/** What an action reference can point at; the host routes on it (N-14). */
export const actionKinds = ['agent', 'workflow', 'command', 'team'] as const;
export type ActionKind = (typeof actionKinds)[number];

const actionId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$/, 'letters, digits and _ . : / -, at most 128, starting with a letter or digit')
  .describe('The id of the agent, workflow, command or team, as the host knows it.');

/** Where an action leads: the host's agent, workflow, command or team with this id. */
export const actionRefSchema = z
  .strictObject({
    kind: z.enum(actionKinds).describe('What the host starts: an agent, a workflow, a command or a team.'),
    id: actionId,
  })
  .describe('An action reference: the host routes by it; the intent layer never executes anything.');
export type ActionRef = z.infer<typeof actionRefSchema>;

const phrase = z.string().trim().min(1).max(200);
/** A regular expression in RE2 syntax (linear time, no look-around, no back-references). */
const pattern = z.string().min(1).max(1000).describe('A regular expression, RE2 syntax, matched case-insensitively.');

/** Deterministic triggers of an action or of a conversation command (the rules layer). */
export const triggerRulesSchema = z
  .strictObject({
    keywords: z
      .array(phrase)
      .default([])
      .describe(
        'Words or phrases that trigger. Latin-script edges must fall on word boundaries; Chinese edges on word boundaries of the segmenter.',
      ),
    patterns: z.array(pattern).default([]).describe('Regular expressions that trigger when they match anywhere.'),
    negativeKeywords: z
      .array(phrase)
      .default([])
      .describe('Words or phrases that veto this target in the rules and similarity layers when present.'),
    priority: z
      .number()
      .int()
      .default(0)
      .describe('When several targets trigger, the highest priority wins; equal priorities go to the first declared.'),
  })
  .describe('Deterministic triggers, checked before anything learned.');
export type TriggerRules = z.infer<typeof triggerRulesSchema>;

/** One allowed value of a category slot and the words that mean it. */
export const allowedValueSchema = z.strictObject({
  value: z.string().min(1).max(200).describe('The canonical value the command carries.'),
  synonyms: z.array(phrase).default([]).describe('Other ways users write it (the value itself always counts).'),
});
export type AllowedValue = z.infer<typeof allowedValueSchema>;

export const slotTypes = ['text', 'number', 'boolean', 'category'] as const;
export type SlotType = (typeof slotTypes)[number];

/** How a slot's value is found in an utterance. */
export const slotExtractionSchema = z.strictObject({
  patterns: z
    .array(pattern)
    .default([])
    .describe('Regular expressions; the value is the group named `value`, else group 1, else the whole match.'),
  fromAnswer: z
    .boolean()
    .default(true)
    .describe(
      'When the host asked for this slot last, a bare answer fills it: an allowed value, a number, yes/no, or (text) the whole utterance.',
    ),
});

export const slotSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'a letter, then letters, digits or _ (at most 64)')
      .describe('The slot name, unique within its action.'),
    type: z.enum(slotTypes),
    description: z.string().max(1000).optional(),
    required: z.boolean().default(false).describe('The host asks for required slots that are still empty.'),
    prompts: z.array(z.string().min(1)).default([]).describe('Questions the host may ask to fill the slot.'),
    allowedValues: z
      .array(allowedValueSchema)
      .optional()
      .describe('The values a category slot may take (required for `category`, refused for other types).'),
    extraction: slotExtractionSchema.default({ patterns: [], fromAnswer: true }),
  })
  .superRefine((slot, context) => {
    if (slot.type === 'category' && (slot.allowedValues?.length ?? 0) === 0) {
      context.addIssue({ code: 'custom', path: ['allowedValues'], message: 'a category slot lists its allowed values' });
    }
    if (slot.type !== 'category' && slot.allowedValues !== undefined) {
      context.addIssue({ code: 'custom', path: ['allowedValues'], message: 'only a category slot has allowed values' });
    }
  });
export type Slot = z.infer<typeof slotSchema>;

const threshold = z.number().min(-1).max(1);

export const actionSchema = z.strictObject({
  ref: actionRefSchema,
  description: z
    .string()
    .min(1)
    .max(2000)
    .describe('What the action does; the model layer reads it, and it is embedded with the examples.'),
  examples: z.array(z.string().min(1).max(500)).default([]).describe('Example utterances for the similarity layer.'),
  rules: triggerRulesSchema.optional(),
  slots: z.array(slotSchema).default([]),
  similarityThreshold: threshold.optional().describe("Overrides the catalog's similarity threshold for this action."),
  metadata: z
    .record(z.string(), z.unknown())
    .default({})
    .describe('Free data for the host; the model layer sees only the keys in `generator.visibleMetadata`.'),
});
export type Action = z.infer<typeof actionSchema>;

/** A conversation command that belongs to no action: cancel, hand off, chit-chat. */
export const conversationTriggerSchema = z.strictObject({
  examples: z.array(z.string().min(1).max(500)).default([]),
  rules: triggerRulesSchema.optional(),
  similarityThreshold: threshold.optional(),
});
export type ConversationTrigger = z.infer<typeof conversationTriggerSchema>;

export const conversationKinds = ['cancel', 'handOff', 'chitChat'] as const;
export type ConversationKind = (typeof conversationKinds)[number];

export const intentCatalogSchema = z
  .strictObject({
    $schema: z.string().optional(),
    formatVersion: z.literal(1),
    name: z.string().max(200).optional(),
    actions: z.array(actionSchema).min(1),
    conversation: z
      .strictObject({
        cancel: conversationTriggerSchema.optional(),
        handOff: conversationTriggerSchema.optional(),
        chitChat: conversationTriggerSchema.optional(),
      })
      .default({})
      .describe('Triggers of the commands that belong to no action.'),
    words: z
      .array(phrase)
      .default([])
      .describe(
        'Chinese words the segmenter must keep whole (人工智能, 出租车), so that a shorter keyword inside them does not fire.',
      ),
    similarity: z
      .strictObject({
        threshold: threshold.default(0.75).describe('A target scoring below its threshold does not match.'),
        clarifyMargin: z
          .number()
          .min(0)
          .max(1)
          .default(0.03)
          .describe('Actions within this margin of the best score make the turn a `clarify`.'),
      })
      .default({ threshold: 0.75, clarifyMargin: 0.03 }),
    generator: z
      .strictObject({
        topK: z.number().int().min(1).max(50).default(5).describe('How many of the most relevant actions the model sees.'),
        visibleMetadata: z.array(z.string()).default([]).describe('The metadata keys the model may see; others never leave.'),
      })
      .default({ topK: 5, visibleMetadata: [] }),
  })
  .describe('An intent catalog: the actions a host can start and how utterances are mapped to them (N-14).');

/** A catalog as written (defaults optional). */
export type IntentCatalogInput = z.input<typeof intentCatalogSchema>;
/** A catalog with its defaults applied. */
export type IntentCatalog = z.output<typeof intentCatalogSchema>;
