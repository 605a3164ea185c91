import { addUsage, emptyUsage, type Message, type Usage } from '../../core/messages.js';
import { NodeFailure } from '../../engine/workflow/nodes/workflow-node.js';
import {
  type ProgressLedger,
  progressLedgerSchema,
  type TeamEventPayload,
  type TeamLedger,
} from '../../engine/workflow/team-events.js';
import type { LanguageModel } from '../../model/language-model.js';
import { callTeamModel, memberMessages, memberSystem, usageOf } from '../model-turn.js';
import type { TeamState } from '../team-state.js';
import type { TeamMessage } from '../team-types.js';
import type { StepScope, Topology, TopologyIssue } from '../topology.js';

/** Options of the `orchestrator` topology. */
export interface OrchestratorOptions {
  /** The orchestrator's model: it writes the ledgers. */
  model: LanguageModel;
  /** Extra instructions for the orchestrator. */
  instructions?: string;
  /** Stalled turns (net) that trigger a re-plan. Default 3. */
  maxStalls?: number;
  /** Re-plans allowed; reaching the stall limit after the last one ends the team `replan-limit`. Default 2. */
  maxReplans?: number;
  /** Tries to get a valid progress ledger before the typed failure. Default 3. */
  maxLedgerAttempts?: number;
}

/** The heading of the orchestrator's task-ledger request (facts, guesses, plan). */
export const TASK_LEDGER_PROMPT = 'TASK LEDGER';
/** The heading of the orchestrator's progress-ledger request. */
export const PROGRESS_LEDGER_PROMPT = 'PROGRESS LEDGER';

/**
 * The `orchestrator` topology (N-12, Magentic-One): an orchestrator model keeps a task ledger —
 * facts, educated guesses, a plan — and, before every member turn, writes a progress ledger: is
 * the request satisfied, are we in a loop, is progress being made, who speaks next and with what
 * instruction. A turn without progress (or in a loop) adds a stall, a productive one removes one;
 * at `maxStalls` the orchestrator re-plans (new facts and plan) and resets the members' working
 * context (the transcript they see starts after the re-plan; the journal keeps everything). After
 * `maxReplans` re-plans, the next stall limit ends the team `replan-limit`. The ledger and its
 * counters are state fields: saved with each step, visible in events (`ledger-updated`) and in
 * the run's state, and a resumed run continues them (no "re-plan before plan" after a crash).
 * When satisfied, the progress ledger's `instruction` is the final answer.
 */
export function orchestrator(options: OrchestratorOptions): Topology {
  const maxStalls = options.maxStalls ?? 3;
  const maxReplans = options.maxReplans ?? 2;
  const maxAttempts = options.maxLedgerAttempts ?? 3;
  return {
    kind: 'orchestrator',
    validate() {
      const issues: TopologyIssue[] = [];
      if (!(Number.isInteger(maxStalls) && maxStalls >= 1))
        issues.push({ path: 'topology.maxStalls', message: 'must be a whole number ≥ 1' });
      if (!(Number.isInteger(maxReplans) && maxReplans >= 0))
        issues.push({ path: 'topology.maxReplans', message: 'must be a whole number ≥ 0' });
      if (!(Number.isInteger(maxAttempts) && maxAttempts >= 1))
        issues.push({ path: 'topology.maxLedgerAttempts', message: 'must be a whole number ≥ 1' });
      return issues;
    },
    async select(state, scope) {
      const usage = emptyUsage();
      const events: TeamEventPayload[] = [];
      const turn = state.turns + 1;
      let ledger = state.ledger;
      if (!ledger) {
        ledger = { ...(await taskLedger(state, scope, options, usage, undefined)), stalls: 0, replans: 0, contextFrom: 0 };
        events.push({ type: 'ledger-updated', turn, change: 'planned', ledger });
      }
      let progress = await progressLedger(state, ledger, scope, options, maxAttempts, usage);
      if (progress.isRequestSatisfied) {
        ledger = { ...ledger, progress };
        events.push({ type: 'ledger-updated', turn, change: 'progress', ledger });
        return {
          ledger,
          usage,
          answer: progress.instruction,
          termination: { reason: 'final-answer', conditions: ['final-answer'], turns: state.turns },
          teamEvents: events,
        };
      }
      const stalled = progress.isInLoop || !progress.isProgressBeingMade;
      ledger = { ...ledger, progress, stalls: stalled ? ledger.stalls + 1 : Math.max(0, ledger.stalls - 1) };
      events.push({ type: 'ledger-updated', turn, change: 'progress', ledger });
      if (ledger.stalls >= maxStalls) {
        if (ledger.replans >= maxReplans) {
          return {
            ledger,
            usage,
            termination: { reason: 'replan-limit', conditions: ['replan-limit'], turns: state.turns },
            teamEvents: events,
          };
        }
        // Re-plan: new facts and plan from what happened, counters reset, members' context cleared.
        const replanned = await taskLedger(state, scope, options, usage, ledger);
        ledger = { ...replanned, stalls: 0, replans: ledger.replans + 1, contextFrom: state.transcript.length };
        events.push({ type: 'ledger-updated', turn, change: 'replanned', ledger });
        progress = await progressLedger(state, ledger, scope, options, maxAttempts, usage);
        ledger = { ...ledger, progress };
        events.push({ type: 'ledger-updated', turn, change: 'progress', ledger });
      }
      const speaker = progress.nextSpeaker;
      events.push({ type: 'speaker-selected', turn, speaker, by: 'orchestrator', instruction: progress.instruction });
      return { ledger, usage, next: { speaker, instruction: progress.instruction }, teamEvents: events };
    },
    async turn(state, scope) {
      const name = state.next?.speaker as string;
      const member = scope.members.get(name);
      if (!member) throw new NodeFailure({ kind: 'invalid-result', message: `the chosen speaker "${name}" is not a member` });
      const instruction = state.next?.instruction ?? '';
      const visible = state.transcript.slice(state.ledger?.contextFrom ?? 0);
      const turn = state.turns + 1;
      const response = await callTeamModel(
        member.model,
        {
          system: memberSystem(member, state.privateNotes),
          messages: memberMessages(name, state.task ?? '', visible, instruction),
          tools: [],
        },
        scope,
      );
      const text = response.message.content;
      const messages: TeamMessage[] = [
        { turn, speaker: 'orchestrator', text: instruction },
        { turn, speaker: name, text },
      ];
      return {
        transcript: messages,
        owner: name,
        turns: turn,
        usage: usageOf(response),
        teamEvents: [{ type: 'team-turn', turn, speaker: name, text }],
      };
    },
    answerOf: (state) => state.answer ?? state.transcript.at(-1)?.text,
  };
}

function teamList(scope: StepScope): string {
  return [...scope.members.values()].map((member) => `- ${member.name}: ${member.description ?? ''}`).join('\n');
}

function transcriptText(messages: readonly TeamMessage[]): string {
  return messages.map((message) => `[${message.speaker}]: ${message.text}`).join('\n');
}

/** Asks for the task ledger (facts, guesses, plan): JSON, or plain text taken as the plan. */
async function taskLedger(
  state: TeamState,
  scope: StepScope,
  options: OrchestratorOptions,
  usage: Usage,
  previous: TeamLedger | undefined,
): Promise<Pick<TeamLedger, 'facts' | 'guesses' | 'plan'>> {
  const system = [
    options.instructions ?? 'You lead a team of agents.',
    `${TASK_LEDGER_PROMPT}: answer with JSON {"facts": string, "guesses": string, "plan": string}.`,
    `Team:\n${teamList(scope)}`,
  ].join('\n\n');
  const messages: Message[] = [{ role: 'user', content: state.task ?? '' }];
  if (previous) {
    messages.push({
      role: 'user',
      content: `We are stuck. Previous facts: ${previous.facts}\nPrevious plan: ${previous.plan}\nWhat happened:\n${transcriptText(state.transcript.slice(previous.contextFrom))}\nUpdate the facts and write a new plan.`,
    });
  }
  const response = await callTeamModel(options.model, { system, messages, tools: [] }, scope);
  addUsage(usage, response.usage);
  const parsed = parseJson(response.message.content) as Partial<Record<'facts' | 'guesses' | 'plan', unknown>> | undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));
  if (parsed && typeof parsed === 'object' && 'plan' in parsed)
    return { facts: text(parsed.facts), guesses: text(parsed.guesses), plan: text(parsed.plan) };
  return { facts: '', guesses: '', plan: response.message.content };
}

/** Asks for the progress ledger; an invalid one (not JSON, wrong keys, unknown speaker) is retried, then a typed failure. */
async function progressLedger(
  state: TeamState,
  ledger: TeamLedger,
  scope: StepScope,
  options: OrchestratorOptions,
  maxAttempts: number,
  usage: Usage,
): Promise<ProgressLedger> {
  const system = [
    options.instructions ?? 'You lead a team of agents.',
    `Facts: ${ledger.facts}\nGuesses: ${ledger.guesses}\nPlan: ${ledger.plan}`,
    `Team:\n${teamList(scope)}`,
    `${PROGRESS_LEDGER_PROMPT}: answer with JSON {"isRequestSatisfied": boolean, "isInLoop": boolean, "isProgressBeingMade": boolean, "nextSpeaker": string, "instruction": string}. When the request is satisfied, "instruction" is the final answer.`,
  ].join('\n\n');
  const messages: Message[] = memberMessages('orchestrator', state.task ?? '', state.transcript.slice(ledger.contextFrom));
  const problems: string[] = [];
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const response = await callTeamModel(options.model, { system, messages, tools: [] }, scope);
    addUsage(usage, response.usage);
    const parsed = progressLedgerSchema.safeParse(parseJson(response.message.content));
    let problem: string | undefined;
    if (!parsed.success) problem = 'not a progress ledger of the requested JSON shape';
    else if (!parsed.data.isRequestSatisfied && !scope.members.has(parsed.data.nextSpeaker))
      problem = `"${parsed.data.nextSpeaker}" is not a member of the team`;
    if (parsed.success && problem === undefined) return parsed.data;
    problems.push(problem as string);
    messages.push({ role: 'assistant', content: response.message.content });
    messages.push({ role: 'user', content: `That is ${problem}. Answer again with the JSON progress ledger only.` });
  }
  throw new NodeFailure({
    kind: 'invalid-result',
    message: `the orchestrator wrote no valid progress ledger in ${maxAttempts} attempts (${problems.join('; ')})`,
    failure: { kind: 'invalid-result', message: 'no valid progress ledger' },
  });
}

/** JSON from a model answer, with or without a Markdown fence; `undefined` when it is not JSON. */
function parseJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  try {
    return JSON.parse((fenced?.[1] ?? text).trim());
  } catch {
    return undefined;
  }
}
