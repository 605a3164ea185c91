import { z } from 'zod';

/**
 * The state field in which a team (`@agentloom/sdk` teams, N-12) writes the events of each of its
 * tasks. A team is a workflow: each of its supersteps saves its writes in one `task-finished`
 * journal entry, so its events are part of the same saved fact. The engine turns the values
 * written to this field into typed workflow events, live and from the journal (`readEvents`,
 * `follow`), with the sequence of the entry that saved them.
 */
export const TEAM_EVENTS_FIELD = 'teamEvents';

const count = () => z.number().int().min(0);
const stopReason = z.string().describe('A TeamStopReason.');

/** The progress ledger of an orchestrator's turn (Magentic-One's keys). */
export const progressLedgerSchema = z.strictObject({
  isRequestSatisfied: z.boolean(),
  isInLoop: z.boolean(),
  isProgressBeingMade: z.boolean(),
  nextSpeaker: z.string(),
  instruction: z.string(),
});
export type ProgressLedger = z.output<typeof progressLedgerSchema>;

/** An orchestrator's ledgers: the task ledger (facts, guesses, plan) and the counters that steer it. */
export const teamLedgerSchema = z.strictObject({
  facts: z.string(),
  guesses: z.string(),
  plan: z.string(),
  /** Turns in a row (net) without progress, or in a loop. */
  stalls: count(),
  /** Re-plans so far (each one resets the members' working context). */
  replans: count(),
  /** The transcript position the members' working context starts from (moved by a re-plan). */
  contextFrom: count(),
  progress: progressLedgerSchema.optional(),
});
export type TeamLedger = z.output<typeof teamLedgerSchema>;

/** The payload of each team event type, as written to `teamEvents` (without the task's identity). */
export const teamEventPayloadSchemas = {
  'team-turn': z.strictObject({
    type: z.literal('team-turn'),
    turn: count(),
    speaker: z.string(),
    text: z.string(),
  }),
  'speaker-selected': z.strictObject({
    type: z.literal('speaker-selected'),
    turn: count(),
    speaker: z.string(),
    by: z.enum(['owner', 'round-robin', 'selector-model', 'function', 'orchestrator', 'claim', 'topology']),
    /** Selector-model attempts it took (an invalid choice is retried). */
    attempts: count().optional(),
    instruction: z.string().optional(),
  }),
  handoff: z.strictObject({ type: z.literal('handoff'), turn: count(), from: z.string(), to: z.string(), handoffs: count() }),
  'ledger-updated': z.strictObject({
    type: z.literal('ledger-updated'),
    turn: count(),
    change: z.enum(['planned', 'progress', 'replanned']),
    ledger: teamLedgerSchema,
  }),
  'vote-cast': z.strictObject({ type: z.literal('vote-cast'), turn: count(), voter: z.string(), choice: z.string() }),
  'task-claimed': z.strictObject({ type: z.literal('task-claimed'), turn: count(), task: z.string(), member: z.string() }),
  'mail-sent': z.strictObject({
    type: z.literal('mail-sent'),
    turn: count(),
    from: z.string(),
    to: z.string(),
    text: z.string(),
  }),
  'team-stop': z.strictObject({
    type: z.literal('team-stop'),
    turn: count(),
    reason: stopReason,
    conditions: z.array(stopReason),
  }),
} as const;

type PayloadSchemas = typeof teamEventPayloadSchemas;
type PayloadSchema = PayloadSchemas[keyof PayloadSchemas];

/** One team event as written to the `teamEvents` field. */
export const teamEventPayloadSchema = z.discriminatedUnion(
  'type',
  Object.values(teamEventPayloadSchemas) as [PayloadSchema, ...PayloadSchema[]],
);
export type TeamEventPayload = z.output<typeof teamEventPayloadSchema>;

/**
 * The team events a task's saved writes carry (written to `teamEvents`), in order. Writes read
 * back from a journal are checked item by item (an entry that is not a team event is skipped);
 * with `checkedBy`, the writes are the ones `writesOfTask` has just checked against that state
 * field (the runner's own, per turn): when it is a team's events field, its items are team events
 * already, taken as they are rather than parsed a second time. Saved writes get back the texts
 * the journal leaves out (`restoreTeamTurnTexts`).
 */
export function teamEventsOf(
  writes: readonly (readonly [string, unknown])[],
  checkedBy?: { readonly contractSchema: unknown },
): TeamEventPayload[] {
  const validated = checkedBy !== undefined && checkedBy.contractSchema === teamEventPayloadSchema;
  const events: TeamEventPayload[] = [];
  // Saved writes may hold `team-turn` events without their text (`compactTeamTurnTexts`).
  for (const [channel, value] of validated ? writes : restoreTeamTurnTexts(writes)) {
    if (channel !== TEAM_EVENTS_FIELD || !Array.isArray(value)) continue;
    if (validated) {
      events.push(...(value as TeamEventPayload[]));
      continue;
    }
    for (const item of value) {
      const parsed = teamEventPayloadSchema.safeParse(item);
      if (parsed.success) events.push(parsed.data);
    }
  }
  return events;
}

/** A team's transcript field: `transcript`, or `<team node>.transcript` in a host workflow. */
const isTranscriptField = (channel: string) => channel === 'transcript' || channel.endsWith('.transcript');

/** A transcript message as the writes carry it (checked field by field: writes read back are untyped). */
interface SpokenMessage {
  turn: number;
  speaker: string;
  text: string;
}

/** The one message of `messages` that `turn` and `speaker` name, or `undefined` (none, or more than one). */
function spokenAt(messages: readonly unknown[], turn: unknown, speaker: unknown): SpokenMessage | undefined {
  let found: SpokenMessage | undefined;
  for (const message of messages) {
    const candidate = message as Partial<SpokenMessage> | null;
    if (candidate === null || typeof candidate !== 'object') continue;
    if (candidate.turn !== turn || candidate.speaker !== speaker || typeof candidate.text !== 'string') continue;
    if (found) return undefined;
    found = candidate as SpokenMessage;
  }
  return found;
}

/** Every message the writes add to a team transcript, or `undefined` when they add none. */
function transcriptMessagesOf(writes: readonly (readonly [string, unknown])[]): unknown[] | undefined {
  let messages: unknown[] | undefined;
  for (const [channel, value] of writes) {
    if (!Array.isArray(value) || !isTranscriptField(channel)) continue;
    if (messages) messages.push(...value);
    else messages = [...value];
  }
  return messages;
}

/**
 * Rewrites each `team-turn` event of `writes` with `change` (the event and the messages the same
 * writes add to the transcript); answers `writes` itself when no event changes.
 */
function mapTeamTurns<Write extends readonly [string, unknown]>(
  writes: readonly Write[],
  change: (event: Record<string, unknown>, messages: readonly unknown[]) => Record<string, unknown> | undefined,
): readonly Write[] {
  let messages: unknown[] | undefined;
  let changed: Write[] | undefined;
  for (let index = 0; index < writes.length; index += 1) {
    const [channel, value] = writes[index] as Write;
    if (channel !== TEAM_EVENTS_FIELD || !Array.isArray(value)) continue;
    let events: unknown[] | undefined;
    for (let at = 0; at < value.length; at += 1) {
      const event = value[at] as Record<string, unknown> | null;
      if (event === null || typeof event !== 'object' || event.type !== 'team-turn') continue;
      messages ??= transcriptMessagesOf(writes);
      if (!messages) return writes;
      const replaced = change(event, messages);
      if (!replaced) continue;
      events ??= [...value];
      events[at] = replaced;
    }
    if (!events) continue;
    changed ??= [...writes];
    changed[index] = [channel, events] as unknown as Write;
  }
  return changed ?? writes;
}

/**
 * The writes as the journal saves them: a `team-turn` event whose text is the text of the one
 * message the same writes add to the team's transcript (same turn, same speaker) is saved without
 * its text, which the transcript keeps — a turn's text was saved twice (issue 31, ADR 0047).
 * `restoreTeamTurnTexts` puts it back wherever saved writes are read. Answers `writes` itself
 * when nothing is left out (every task that is not a team's).
 */
export function compactTeamTurnTexts<Write extends readonly [string, unknown]>(writes: readonly Write[]): readonly Write[] {
  return mapTeamTurns(writes, (event, messages) => {
    if (typeof event.text !== 'string') return undefined;
    const message = spokenAt(messages, event.turn, event.speaker);
    if (message?.text !== event.text) return undefined;
    return { type: 'team-turn', turn: event.turn, speaker: event.speaker };
  });
}

/**
 * Saved writes as they were written: each `team-turn` event saved without its text (by
 * `compactTeamTurnTexts`) takes it back from its transcript message. Writes saved before the
 * compaction, and writes of tasks that are not a team's, are answered as they are.
 */
export function restoreTeamTurnTexts<Write extends readonly [string, unknown]>(writes: readonly Write[]): readonly Write[] {
  return mapTeamTurns(writes, (event, messages) => {
    if (typeof event.text === 'string') return undefined;
    const message = spokenAt(messages, event.turn, event.speaker);
    if (!message) return undefined;
    return { type: 'team-turn', turn: event.turn, speaker: event.speaker, text: message.text };
  });
}
