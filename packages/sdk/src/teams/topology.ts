import type { RetryPolicy } from '../core/retry-policy.js';
import type { TeamState, TeamUpdate } from './team-state.js';
import type { TeamMember } from './team-types.js';

/** What a topology's step may use besides the state: members, signal, deadline, clock. */
export interface StepScope {
  members: ReadonlyMap<string, TeamMember>;
  /** Aborted on stop, deadline or lost ownership: pass it to every call. */
  signal: AbortSignal;
  deadlineAt: number;
  retry: RetryPolicy;
  now(): number;
  /** The workflow task's id: the same after a recovery (an idempotency key). */
  taskId: string;
  /**
   * Pauses the run for the user's answer (`workflow.run({ runId, resume })`): the only way a
   * pending approval is answered — never by a member's message (N-12).
   */
  askUser<Answer>(question: unknown): Answer;
}

/** A problem of a topology's configuration, found before anything runs (W-4). */
export interface TopologyIssue {
  path: string;
  message: string;
}

/**
 * A team topology (N-12) as two steps on the workflow engine: `select` chooses who speaks next
 * (and may update ledgers), `turn` lets that member speak. Each step is one workflow task, so its
 * writes — the choice, the message, the handoff, the ledger — are one journal entry, saved before
 * the next step starts. Steps are functions of the saved state only: nothing lives on the
 * topology object between steps.
 */
export interface Topology {
  readonly kind: string;
  /**
   * True when the choice is made in the member turn's own task, one journal entry per turn: when
   * `select` calls no model and has no effect outside the state (the owner, round-robin, a
   * function) — a takeover recomputes the same choice from the same saved state — or when a
   * selector model was told to (`saveChoice: 'with-turn'`). Otherwise (a selector model, an
   * orchestrator's ledgers) the choice is saved before the member speaks.
   */
  readonly choiceWithTurn?: boolean;
  /** Problems of the configuration against the team's members. */
  validate(members: ReadonlyMap<string, TeamMember>): TopologyIssue[];
  /** Chooses the next turn (`next`), or ends the team (`termination`, with `answer`). */
  select(state: TeamState, scope: StepScope): Promise<TeamUpdate>;
  /** The chosen member's turn; may end the team (a final answer, a handoff to the user). */
  turn(state: TeamState, scope: StepScope): Promise<TeamUpdate>;
  /** The answer to return when a termination condition ended the team. */
  answerOf(state: TeamState): string | undefined;
}

/** The SDK's own topologies whose every write is typed or checked where it is made (see `vouchForWrites`). */
const vouched = new WeakSet<Topology>();

/**
 * Marks one of the SDK's own topologies as building every write from typed values and checking
 * what its user functions return (a history filter's messages, a speaker function's name): its
 * team steps' writes are then not parsed again per turn. Internal: not exported from the package,
 * so a topology written outside the SDK always has its writes parsed.
 */
export function vouchForWrites<T extends Topology>(topology: T): T {
  vouched.add(topology);
  return topology;
}

/** Whether `topology` was marked by `vouchForWrites`. */
export function vouchesForWrites(topology: Topology): boolean {
  return vouched.has(topology);
}

/** The text of the last message of a member (not the user, not the orchestrator). */
export function lastMemberText(state: TeamState, members: ReadonlyMap<string, TeamMember>): string | undefined {
  for (let index = state.transcript.length - 1; index >= 0; index -= 1) {
    const message = state.transcript[index];
    if (message && members.has(message.speaker)) return message.text;
  }
  return undefined;
}
