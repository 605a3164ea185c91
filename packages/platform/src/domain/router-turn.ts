import {
  type ActionRef,
  applyCommands,
  type Command,
  type CompiledCatalog,
  type DialogueState,
  refKey,
  type SlotValue,
  sameRef,
} from '@agentloom/intent';

/**
 * What the platform keeps per router session (the host's side of N-14): the dialogue state that
 * `understand` reads, and the run the router started for the active action while it may still
 * be running.
 */
export interface RouterSessionState {
  dialogue: DialogueState;
  run?: { appId: string; runId: string; action: ActionRef } | undefined;
}

/** What the platform does for a turn, in order. */
export type RouterStep =
  | { type: 'stop'; runId: string }
  | { type: 'start'; action: ActionRef; input: string | Record<string, SlotValue> }
  | { type: 'supplement'; runId: string; appId: string; text: string };

/** How a turn is answered; `text` is a default sentence (the slot prompt when one is asked). */
export type RouterReply =
  | { kind: 'ask-slot'; action: ActionRef; slot: string; text: string }
  | { kind: 'started'; action: ActionRef; text: string }
  | { kind: 'supplemented'; text: string }
  | { kind: 'cancelled'; text: string }
  | { kind: 'clarify'; options: { ref: ActionRef; description: string }[]; text: string }
  | { kind: 'chit-chat'; text: string }
  | { kind: 'hand-off'; text: string }
  | { kind: 'cannot-handle'; text: string };

/** A turn planned: the state to keep, the steps to take, the reply. */
export interface PlannedTurn {
  state: RouterSessionState;
  steps: RouterStep[];
  reply: RouterReply;
}

/**
 * The state a turn starts from: when the run the router started has ended, its action is done —
 * the dialogue forgets it (and its slots), so the next utterance starts afresh.
 */
export function settleRouterState(state: RouterSessionState, runActive: boolean): RouterSessionState {
  if (!state.run || runActive) return state;
  const done = state.dialogue.activeAction && sameRef(state.dialogue.activeAction, state.run.action);
  return { dialogue: done ? {} : state.dialogue };
}

/**
 * The input of a routed run: a workflow takes the slots as its state fields; an agent takes text
 * — the slots as a JSON object when the action has any, else the utterance that started it.
 */
export function routedInput(
  kind: ActionRef['kind'],
  slots: Readonly<Record<string, SlotValue>>,
  utterance: string,
): string | Record<string, SlotValue> {
  if (kind === 'workflow') return { ...slots };
  return Object.keys(slots).length > 0 ? JSON.stringify(slots) : utterance;
}

/**
 * Decides what the host does with the commands of one turn (pure; the application carries the
 * steps out). In order: a hand-off ends the dialogue (nothing is stopped); a cancel stops the
 * active run; a clarify asks between the options; an utterance while the router's run is active
 * that starts nothing new is that run's supplement;
 * chit-chat is answered as such and starts nothing (a slot being asked stays asked); an active
 * action asks for its first missing required slot (with the slot's first prompt) or, when none is
 * missing, starts the action's app with the slots as input; anything else cannot be handled.
 */
export function planRouterTurn(
  settled: RouterSessionState,
  commands: readonly Command[],
  utterance: string,
  catalog: CompiledCatalog,
): PlannedTurn {
  const has = (type: Command['type']) => commands.some((command) => command.type === type);
  const dialogue = applyCommands(settled.dialogue, commands, catalog);
  const steps: RouterStep[] = [];
  let run = settled.run;
  const done = (reply: RouterReply): PlannedTurn => ({ state: { dialogue, run }, steps, reply });
  if (has('handOff')) {
    run = undefined;
    return done({ kind: 'hand-off', text: 'Handing you over to a person: this router starts nothing for it.' });
  }
  const starts = has('start');
  if (has('cancel')) {
    if (run) steps.push({ type: 'stop', runId: run.runId });
    run = undefined;
    if (!starts) return done({ kind: 'cancelled', text: 'Cancelled.' });
  }
  const clarify = commands.find((command) => command.type === 'clarify');
  if (clarify) {
    const options = clarify.options.map((ref) => ({ ref, description: catalog.action(refKey(ref))?.action.description ?? '' }));
    return done({ kind: 'clarify', options, text: `Which do you mean: ${options.map((o) => o.description).join(' / ')}?` });
  }
  if (run && !starts) {
    steps.push({ type: 'supplement', runId: run.runId, appId: run.appId, text: utterance });
    return done({ kind: 'supplemented', text: 'Passed on to the run in progress.' });
  }
  // Small talk answers as small talk, even while a slot is being asked (the state keeps the question).
  if (has('chitChat') && !starts) return done({ kind: 'chit-chat', text: 'Hello! Tell me what you need and I will route it.' });
  const active = dialogue.activeAction ? catalog.action(refKey(dialogue.activeAction)) : undefined;
  if (active && dialogue.activeAction) {
    if (starts) run = undefined; // a new action: the earlier run goes on, no longer the router's
    const asked = dialogue.askedSlot ? active.action.slots.find((slot) => slot.name === dialogue.askedSlot) : undefined;
    if (asked)
      return done({
        kind: 'ask-slot',
        action: dialogue.activeAction,
        slot: asked.name,
        text: asked.prompts[0] ?? `What is the ${asked.name}?`,
      });
    const input = routedInput(dialogue.activeAction.kind, dialogue.slots ?? {}, utterance);
    steps.push({ type: 'start', action: dialogue.activeAction, input });
    return done({ kind: 'started', action: dialogue.activeAction, text: `Starting: ${active.action.description}` });
  }
  return done({ kind: 'cannot-handle', text: 'Sorry, I cannot help with that here.' });
}
