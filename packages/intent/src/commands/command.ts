import { z } from 'zod';
import { type ActionRef, actionRefSchema } from '../catalog/catalog-schema.js';

/** A slot value as commands carry it: a category's canonical value, a text, a number or a yes/no. */
export const slotValueSchema = z.union([z.string(), z.number(), z.boolean()]);
export type SlotValue = z.infer<typeof slotValueSchema>;

const slotName = z.string().min(1).max(64);

/**
 * What one utterance asks for, as a list of these commands (N-14). Names follow Rasa's dialogue
 * understanding commands. The library only produces them; the host applies them to its dialogue
 * state and routes `start` by its action reference.
 */
export const commandSchema = z.discriminatedUnion('type', [
  z
    .strictObject({ type: z.literal('start'), action: actionRefSchema })
    .describe('Start the action (the host routes by `action`).'),
  z
    .strictObject({ type: z.literal('setSlot'), name: slotName, value: slotValueSchema })
    .describe('Fill a slot of the action started in the same turn, else of the active one.'),
  z
    .strictObject({ type: z.literal('correctSlot'), name: slotName, value: slotValueSchema })
    .describe('Replace the value of a slot the active action already has.'),
  z.strictObject({ type: z.literal('cancel') }).describe('Cancel the active action.'),
  z
    .strictObject({ type: z.literal('clarify'), options: z.array(actionRefSchema).min(1) })
    .describe('Ask the user which of these actions they mean.'),
  z.strictObject({ type: z.literal('chitChat') }).describe('Small talk: answer it, start nothing.'),
  z
    .strictObject({ type: z.literal('handOff'), reason: z.string().max(500).optional() })
    .describe('Hand the conversation to a human.'),
  z
    .strictObject({ type: z.literal('cannotHandle'), reason: z.string().max(500).optional() })
    .describe('Nothing in the catalog fits: out of scope, or output that could not be used.'),
]);
export type Command = z.infer<typeof commandSchema>;
export type CommandType = Command['type'];
export const commandTypes: readonly CommandType[] = [
  'start',
  'setSlot',
  'correctSlot',
  'cancel',
  'clarify',
  'chitChat',
  'handOff',
  'cannotHandle',
];

/** `workflow:book_flight`: one string per action reference, for maps, tables and messages. */
export function refKey(ref: ActionRef): string {
  return `${ref.kind}:${ref.id}`;
}

/** Two references name the same action. */
export function sameRef(a: ActionRef | undefined, b: ActionRef | undefined): boolean {
  return a !== undefined && b !== undefined && a.kind === b.kind && a.id === b.id;
}
