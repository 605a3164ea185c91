import { z } from 'zod';
import { actionRefSchema } from '../catalog/catalog-schema.js';
import type { CompiledCatalog } from '../catalog/compile-catalog.js';
import type { IntentProblem } from '../errors/index.js';
import { type Command, refKey, type SlotValue, slotValueSchema } from './command.js';

/**
 * The dialogue state `understand` reads. The host holds it (the library keeps nothing between
 * calls, N-14) and passes it with every utterance: the active action (the top of the host's flow
 * stack, if it keeps one), the slots it has filled, and the slot the host asked for last.
 */
export const dialogueStateSchema = z.strictObject({
  activeAction: actionRefSchema.optional(),
  slots: z.record(z.string(), slotValueSchema).default({}),
  askedSlot: z.string().optional(),
});
/** The dialogue state as the host passes it (`slots` optional). */
export type DialogueState = z.input<typeof dialogueStateSchema>;

/** Problems of a state against a catalog: an active action it does not have, slots of no action or of another one. */
export function dialogueStateProblems(state: z.output<typeof dialogueStateSchema>, catalog: CompiledCatalog): IntentProblem[] {
  const problems: IntentProblem[] = [];
  const active = state.activeAction ? catalog.action(refKey(state.activeAction)) : undefined;
  if (state.activeAction && !active) {
    problems.push({ path: 'state.activeAction', message: `${refKey(state.activeAction)} is not an action of the catalog` });
  }
  const slotNames = new Set(active?.slots.map((slot) => slot.slot.name));
  for (const name of Object.keys(state.slots)) {
    if (!slotNames.has(name)) problems.push({ path: `state.slots.${name}`, message: 'not a slot of the active action' });
  }
  if (state.askedSlot !== undefined && !slotNames.has(state.askedSlot)) {
    problems.push({ path: 'state.askedSlot', message: `"${state.askedSlot}" is not a slot of the active action` });
  }
  return problems;
}

/**
 * The state a host following the commands would be in next — a reference implementation of the
 * host's side, used by the evaluation (which applies each turn's expected commands) and free for
 * hosts to use. `cancel` and `handOff` clear the state; `start` makes its action active with no
 * slots; `setSlot` / `correctSlot` fill slots of the active action (slots of no action are
 * ignored); `clarify`, `chitChat` and `cannotHandle` change nothing. The action stays active once
 * its required slots are filled (the host decides when its run ends); `askedSlot` becomes the
 * first required slot still empty, in declared order, or none.
 */
export function applyCommands(state: DialogueState, commands: readonly Command[], catalog: CompiledCatalog): DialogueState {
  let activeAction = state.activeAction;
  let slots: Record<string, SlotValue> = { ...(state.slots ?? {}) };
  if (commands.some((command) => command.type === 'cancel' || command.type === 'handOff')) {
    activeAction = undefined;
    slots = {};
  }
  const start = commands.find((command) => command.type === 'start');
  if (start) {
    activeAction = start.action;
    slots = {};
  }
  const action = activeAction ? catalog.action(refKey(activeAction)) : undefined;
  if (!action) return {};
  const names = new Set(action.slots.map((slot) => slot.slot.name));
  for (const command of commands) {
    if ((command.type === 'setSlot' || command.type === 'correctSlot') && names.has(command.name)) {
      slots[command.name] = command.value;
    }
  }
  const asked = action.slots.find((slot) => slot.slot.required && slots[slot.slot.name] === undefined);
  return { activeAction: action.action.ref, slots, ...(asked ? { askedSlot: asked.slot.name } : {}) };
}
