import { z } from 'zod';
import type { Usage } from '../core/messages.js';
import type { TeamMessage, TeamStopReason, TeamTermination } from './team-types.js';

/**
 * A termination condition of a team, as data (N-12): composable with `and` / `or`, checked at
 * every turn boundary against counters that live in the run's journal, so that a resumed team
 * continues them and never restarts a budget or a timeout.
 */
export type TerminationCondition =
  | { kind: 'max-turns'; turns: number }
  | { kind: 'max-messages'; messages: number }
  | { kind: 'text-mention'; text: string; from?: string[] }
  | { kind: 'token-budget'; totalTokens?: number; inputTokens?: number; outputTokens?: number }
  | { kind: 'cost-budget'; usd: number; inputUsdPerMillion: number; outputUsdPerMillion: number }
  | { kind: 'timeout'; ms: number }
  | { kind: 'handoff-to-user' }
  | { kind: 'external-stop' }
  | { kind: 'and'; all: TerminationCondition[] }
  | { kind: 'or'; any: TerminationCondition[] };

const positive = z.number().int().min(1);

/** The zod schema of a termination condition (part of the published team definition). */
export const terminationSchema: z.ZodType<TerminationCondition> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('max-turns'), turns: positive.describe('Member turns.') }),
    z.strictObject({
      kind: z.literal('max-messages'),
      messages: positive.describe('Transcript messages (the task not counted).'),
    }),
    z.strictObject({
      kind: z.literal('text-mention'),
      text: z.string().min(1).describe('Stops when a message contains this text.'),
      from: z.array(z.string().min(1)).optional().describe('Only messages of these members count.'),
    }),
    z.strictObject({
      kind: z.literal('token-budget'),
      totalTokens: positive.optional(),
      inputTokens: positive.optional(),
      outputTokens: positive.optional(),
    }),
    z.strictObject({
      kind: z.literal('cost-budget'),
      usd: z.number().positive(),
      inputUsdPerMillion: z.number().min(0),
      outputUsdPerMillion: z.number().min(0),
    }),
    z.strictObject({ kind: z.literal('timeout'), ms: positive.describe('From the team run start, never restarted.') }),
    z.strictObject({ kind: z.literal('handoff-to-user') }),
    z.strictObject({ kind: z.literal('external-stop') }),
    z.strictObject({ kind: z.literal('and'), all: z.array(terminationSchema).min(1) }),
    z.strictObject({ kind: z.literal('or'), any: z.array(terminationSchema).min(1) }),
  ]),
);

/** Stops after `turns` member turns. */
export const maxTurns = (turns: number): TerminationCondition => ({ kind: 'max-turns', turns });
/** Stops once the transcript holds `messages` messages. */
export const maxMessages = (messages: number): TerminationCondition => ({ kind: 'max-messages', messages });
/** Stops when a message (of `from`, if given) contains `text`. */
export const textMention = (text: string, from?: string[]): TerminationCondition => ({
  kind: 'text-mention',
  text,
  ...(from ? { from } : {}),
});
/** Stops once the team's token usage reaches one of the limits. */
export const tokenBudget = (limits: {
  totalTokens?: number;
  inputTokens?: number;
  outputTokens?: number;
}): TerminationCondition => ({
  kind: 'token-budget',
  ...limits,
});
/** Stops once the team's cost (its usage at these prices) reaches `usd`. */
export const costBudget = (
  usd: number,
  prices: { inputUsdPerMillion: number; outputUsdPerMillion: number },
): TerminationCondition => ({
  kind: 'cost-budget',
  usd,
  ...prices,
});
/** Stops `ms` after the team run started (the start is saved: a resumed run keeps it). */
export const timeout = (ms: number): TerminationCondition => ({ kind: 'timeout', ms });
/** Stops when a member hands off to `user`. */
export const handoffToUser = (): TerminationCondition => ({ kind: 'handoff-to-user' });
/** Stops when the team's `ExternalStop` is set. */
export const externalStop = (): TerminationCondition => ({ kind: 'external-stop' });
/** Stops when every condition holds. */
export const and = (...all: TerminationCondition[]): TerminationCondition => ({ kind: 'and', all });
/** Stops when any condition holds. */
export const or = (...any: TerminationCondition[]): TerminationCondition => ({ kind: 'or', any });

/**
 * An in-process stop switch for the `external-stop` condition (AutoGen's `ExternalTermination`):
 * `set()` ends the team gracefully at its next turn boundary, with the reason saved. A stop from
 * another process is the run's own stop (`RunClient.stop`, S-5), which also reaches every member.
 */
export class ExternalStop {
  private requested = false;
  /** Asks the team to stop at its next turn boundary. */
  set(): void {
    this.requested = true;
  }
  get isSet(): boolean {
    return this.requested;
  }
}

/** What a termination reads: all of it saved in the journal, except the clock and the switch. */
export interface TerminationInput {
  turns: number;
  transcript: readonly TeamMessage[];
  usage: Usage;
  startedAt: number;
  now: number;
  /** Whether the last message handed the answer to `user`. */
  handedToUser: boolean;
  externalStop: boolean;
}

/** The conditions that hold, or `undefined`: an `or` holds with its first holding member. */
function holding(condition: TerminationCondition, input: TerminationInput): TeamStopReason[] | undefined {
  switch (condition.kind) {
    case 'max-turns':
      return input.turns >= condition.turns ? ['max-turns'] : undefined;
    case 'max-messages':
      return input.transcript.length >= condition.messages ? ['max-messages'] : undefined;
    case 'text-mention': {
      const from = condition.from;
      const mentioned = input.transcript.some(
        (message) => message.turn > 0 && (!from || from.includes(message.speaker)) && message.text.includes(condition.text),
      );
      return mentioned ? ['text-mention'] : undefined;
    }
    case 'token-budget': {
      const { usage } = input;
      const over =
        (condition.totalTokens !== undefined && usage.totalTokens >= condition.totalTokens) ||
        (condition.inputTokens !== undefined && usage.inputTokens >= condition.inputTokens) ||
        (condition.outputTokens !== undefined && usage.outputTokens >= condition.outputTokens);
      return over ? ['token-budget'] : undefined;
    }
    case 'cost-budget': {
      const usd =
        (input.usage.inputTokens * condition.inputUsdPerMillion + input.usage.outputTokens * condition.outputUsdPerMillion) / 1e6;
      return usd >= condition.usd ? ['cost-budget'] : undefined;
    }
    case 'timeout':
      return input.now - input.startedAt >= condition.ms ? ['timeout'] : undefined;
    case 'handoff-to-user':
      return input.handedToUser ? ['handoff-to-user'] : undefined;
    case 'external-stop':
      return input.externalStop ? ['external-stop'] : undefined;
    case 'and': {
      const all: TeamStopReason[] = [];
      for (const part of condition.all) {
        const held = holding(part, input);
        if (!held) return undefined;
        all.push(...held);
      }
      return all;
    }
    case 'or':
      for (const part of condition.any) {
        const held = holding(part, input);
        if (held) return held;
      }
      return undefined;
  }
}

/** Checks `condition` at a turn boundary: the termination to record, or `undefined` to go on. */
export function checkTermination(condition: TerminationCondition, input: TerminationInput): TeamTermination | undefined {
  const held = holding(condition, input);
  if (!held || held.length === 0) return undefined;
  return { reason: held[0] as TeamStopReason, conditions: held, turns: input.turns };
}
