import { z } from 'zod';
import { addUsage, emptyUsage, type Usage } from '../core/messages.js';
import { appendList, lastValue, mergeWith, type StateDefinition } from '../engine/workflow/channels/state-fields.js';
import {
  TEAM_EVENTS_FIELD,
  type TeamEventPayload,
  type TeamLedger,
  teamEventPayloadSchema,
  teamLedgerSchema,
} from '../engine/workflow/team-events.js';
import {
  type PrivateNote,
  privateNoteSchema,
  type TeamMessage,
  type TeamTermination,
  teamMessageSchema,
  teamTerminationSchema,
  teamUsageSchema,
} from './team-types.js';

/** The next turn, as chosen and saved before the member speaks. */
export const nextTurnSchema = z.strictObject({
  speaker: z.string(),
  /** The member turn it was chosen for, when the choice was saved apart from the turn (a team's own workflow). */
  turn: z.number().int().min(1).optional(),
  instruction: z.string().optional(),
  /** What the turn is about: a claimed task of the board, a problem to verify, a phase. */
  subject: z.string().optional(),
});

/** One task of a task board, as saved (N-12): its status and who claimed it. */
export const boardTaskSchema = z.strictObject({
  status: z.enum(['pending', 'claimed', 'done', 'declined']),
  owner: z.string().optional(),
  result: z.string().optional(),
});
export type BoardTask = z.output<typeof boardTaskSchema>;

/** A message of a member's mailbox: data from a peer, never an instruction with the user's authority. */
export const mailSchema = z.strictObject({ turn: z.number().int().min(0), from: z.string(), to: z.string(), text: z.string() });
export type Mail = z.output<typeof mailSchema>;
export type NextTurn = z.output<typeof nextTurnSchema>;

/**
 * The state of every team: the workflow state fields in which all of a team's coordination lives
 * (N-12). Nothing of it is kept on an object: each superstep's writes are one journal entry, and
 * a resumed run folds them back, so the transcript, the owner, the counters and the ledger are
 * exactly what they were when the last entry was saved.
 */
export function teamStateDefinition() {
  return {
    /** The user's request (the run's input). */
    task: lastValue(z.string()),
    /** The shared transcript, the task excluded; a member's turn appends its message. */
    transcript: appendList(teamMessageSchema),
    /** Notes each member keeps beside the transcript, shown to it alone. */
    privateNotes: appendList(privateNoteSchema),
    /** Who owns the final answer (handoff) or spoke last. */
    owner: lastValue(z.string()),
    /** The speaker chosen for the coming turn (saved before it speaks). */
    next: lastValue(nextTurnSchema),
    /** Member turns taken. */
    turns: lastValue(z.number().int().min(0), { default: 0 }),
    /** Handoffs made (bounded by the topology's `maxHandoffs`). */
    handoffs: lastValue(z.number().int().min(0), { default: 0 }),
    /** What a receiver of a handoff sees of the history: the filter's output, saved at the handoff. */
    handedHistory: lastValue(z.array(teamMessageSchema)),
    /** Epoch ms of the team's first turn boundary: the start of `timeout` (never restarted). */
    startedAt: lastValue(z.number()),
    /** Tokens of every member, selector and orchestrator call: the team's shared budget. */
    usage: mergeWith(teamUsageSchema, {
      initial: emptyUsage,
      merge: (current: Usage, update: Usage) => addUsage({ ...current }, update),
    }),
    /** The task board: each task's status, owner and result, by task id. */
    board: lastValue(z.record(z.string(), boardTaskSchema)),
    /** Every mailbox message; a member reads those addressed to it. */
    mail: appendList(mailSchema),
    /** Votes, evaluations, found problems: a topology's own saved records, by key. */
    records: mergeWith(z.record(z.string(), z.unknown()), {
      initial: () => ({}),
      merge: (current: Record<string, unknown>, update: Record<string, unknown>) => ({ ...current, ...update }),
    }),
    /** The orchestrator's ledgers. */
    ledger: lastValue(teamLedgerSchema),
    /** How the team ended. */
    termination: lastValue(teamTerminationSchema),
    /** The final answer. */
    answer: lastValue(z.string()),
    /** The events of each task (projected to typed workflow events). */
    [TEAM_EVENTS_FIELD]: appendList(teamEventPayloadSchema),
  } satisfies StateDefinition;
}

/** The state a team's steps read. */
export interface TeamState {
  task: string | undefined;
  transcript: TeamMessage[];
  privateNotes: PrivateNote[];
  owner: string | undefined;
  next: NextTurn | undefined;
  turns: number;
  handoffs: number;
  handedHistory: TeamMessage[] | undefined;
  startedAt: number | undefined;
  usage: Usage;
  ledger: TeamLedger | undefined;
  board: Record<string, BoardTask> | undefined;
  mail: Mail[];
  records: Record<string, unknown>;
  termination: TeamTermination | undefined;
  answer: string | undefined;
  teamEvents: TeamEventPayload[];
}

/** A partial update of a team's state (one superstep's writes). */
export interface TeamUpdate {
  transcript?: TeamMessage[];
  privateNotes?: PrivateNote[];
  owner?: string;
  next?: NextTurn;
  turns?: number;
  handoffs?: number;
  handedHistory?: TeamMessage[];
  startedAt?: number;
  usage?: Usage;
  ledger?: TeamLedger;
  board?: Record<string, BoardTask>;
  mail?: Mail[];
  records?: Record<string, unknown>;
  termination?: TeamTermination;
  answer?: string;
  teamEvents?: TeamEventPayload[];
}

/** The fields whose updates are appended (the others replace, except `usage`, added, and `records`, merged). */
const LIST_FIELDS = ['transcript', 'privateNotes', 'mail', 'teamEvents'] as const;

/**
 * Two successive updates as one, folded as the state fields fold them (lists appended, usage
 * added, records merged, the rest replaced): a choice and a turn saved as one journal entry.
 */
export function mergeTeamUpdates(first: TeamUpdate, second: TeamUpdate): TeamUpdate {
  // Copied key by key rather than spread: updates come in many shapes (a megamorphic spread site
  // allocates several times the object's size); both are plain objects of a topology's own.
  const merged: Record<string, unknown> = {};
  for (const field in first) merged[field] = first[field as keyof TeamUpdate];
  for (const field in second) merged[field] = second[field as keyof TeamUpdate];
  for (const field of LIST_FIELDS) {
    if (first[field] && second[field]) (merged as Record<string, unknown>)[field] = [...first[field], ...second[field]];
  }
  if (first.usage && second.usage) merged.usage = addUsage({ ...first.usage }, second.usage);
  if (first.records && second.records) merged.records = { ...first.records, ...second.records };
  return merged as TeamUpdate;
}

/** The state after `update`, folded as the workflow folds it (what the next step of the same task reads). */
export function applyTeamUpdate(state: TeamState, update: TeamUpdate): TeamState {
  const next = { ...state } as Record<string, unknown>;
  // A key loop, not `Object.entries` (an array per field, each turn).
  for (const field in update) {
    const value = update[field as keyof TeamUpdate];
    if (value !== undefined) next[field] = value;
  }
  for (const field of LIST_FIELDS) if (update[field]) next[field] = [...state[field], ...update[field]];
  if (update.usage) next.usage = addUsage({ ...state.usage }, update.usage);
  if (update.records) next.records = { ...state.records, ...update.records };
  return next as unknown as TeamState;
}
