/**
 * The scripted conversation of `bench:team`, the same for every framework: who speaks, what each
 * member says, and who hands over to whom. Each framework gets an instant fake model of its own
 * kind (`team-models.ts`) that answers from this script, so that the three frameworks run the
 * same team on the same answers; the time spent inside those models is counted here and taken
 * out of the per-turn overhead.
 */
import { performance } from 'node:perf_hooks';

/** Member turns of the group chat. */
export const CHAT_TURNS = 20;
/** The group chat's members, in the order the selector alternates them. */
export const CHAT_MEMBERS = ['writer', 'critic'] as const;
/** The handoff chain: each member hands the answer to the next, the last one answers. */
export const CHAIN_MEMBERS = ['triage', 'billing', 'refunds', 'payouts', 'audit'] as const;
/** The user's request of both teams. */
export const TASK = 'Write a short release note for version 2.4 and make it accurate.';

/** Filler that gives each message the size of a short real answer (about 300 characters). */
const FILLER =
  ' The change set touches the scheduler, the retry policy and the status page; each point is checked against the' +
  ' merged pull requests, and every claim names the ticket it comes from so that a reader can verify it quickly.';

/** What a fake model answers to one call: a text, or a handoff / selection of another member. */
export type ScriptedTurn = { kind: 'text'; text: string } | { kind: 'transfer'; to: string };

/**
 * One run's script: per-role call counters (reset before each run) and the model time spent.
 * Roles are member names, plus `selector` for whoever picks the group chat's next speaker.
 */
export class TeamScript {
  /** Milliseconds spent inside the fake models since the last `reset()`. */
  modelMs = 0;
  /** Model calls since the last `reset()`. */
  calls = 0;
  private readonly counters = new Map<string, number>();

  reset(): void {
    this.modelMs = 0;
    this.calls = 0;
    this.counters.clear();
  }

  /** The k-th answer of `role` in the group chat (the selector alternates writer and critic, then ends). */
  chat(role: string): ScriptedTurn {
    const call = this.next(role);
    if (role === 'selector') {
      return call <= CHAT_TURNS
        ? { kind: 'transfer', to: CHAT_MEMBERS[(call - 1) % CHAT_MEMBERS.length] as string }
        : { kind: 'text', text: 'The release note is done.' };
    }
    const turn = role === 'writer' ? 2 * call - 1 : 2 * call;
    return { kind: 'text', text: chatText(role, turn) };
  }

  /** The answer of `role` in the handoff chain: hand over to the next member; the last one answers. */
  chain(role: string): ScriptedTurn {
    this.next(role);
    const index = CHAIN_MEMBERS.indexOf(role as (typeof CHAIN_MEMBERS)[number]);
    const next = CHAIN_MEMBERS[index + 1];
    return next ? { kind: 'transfer', to: next } : { kind: 'text', text: CHAIN_ANSWER };
  }

  /** Times `work` as model time (the fake model's own cost, taken out of the overhead). */
  timed<T>(work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.modelMs += performance.now() - started;
    }
  }

  private next(role: string): number {
    const call = (this.counters.get(role) ?? 0) + 1;
    this.counters.set(role, call);
    this.calls += 1;
    return call;
  }
}

/** The text of the group chat's member turn `turn` (1-based), spoken by `speaker`. */
export function chatText(speaker: string, turn: number): string {
  return `${speaker} #${turn}:${FILLER}`;
}

/** The answer the chain's last member gives. */
export const CHAIN_ANSWER = `audit: the refund of order 1234 is paid out and booked.${FILLER}`;

/** The member texts every framework's group chat must produce, in order. */
export function expectedChat(): string[] {
  return Array.from({ length: CHAT_TURNS }, (_, index) =>
    chatText(CHAT_MEMBERS[index % CHAT_MEMBERS.length] as string, index + 1),
  );
}

/** The models of the group chat's team, of one framework's kind: the members and the selector. */
export type ChatModels<M> = Record<(typeof CHAT_MEMBERS)[number] | 'selector', M>;
/** The models of the handoff chain's members, of one framework's kind. */
export type ChainModels<M> = Record<(typeof CHAIN_MEMBERS)[number], M>;
