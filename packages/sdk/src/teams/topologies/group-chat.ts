import type { Message, Usage } from '../../core/messages.js';
import { addUsage, emptyUsage } from '../../core/messages.js';
import { NodeFailure } from '../../engine/workflow/nodes/workflow-node.js';
import type { TeamEventPayload } from '../../engine/workflow/team-events.js';
import type { LanguageModel } from '../../model/language-model.js';
import { callTeamModel, memberMessages, memberSystem, usageOf } from '../model-turn.js';
import type { TeamState, TeamUpdate } from '../team-state.js';
import type { TeamMessage } from '../team-types.js';
import { type StepScope, type Topology, type TopologyIssue, vouchForWrites } from '../topology.js';

/** What a speaker-selection function reads: the saved conversation and who may speak. */
export interface SpeakerView {
  task: string;
  transcript: readonly TeamMessage[];
  turns: number;
  lastSpeaker: string | undefined;
  candidates: readonly string[];
}

/** A speaker-selection function: returns one of `view.candidates`. */
export type SpeakerFunction = (view: SpeakerView) => string;

/** A selector model: shown the candidates and the transcript, it answers a member's name. */
export interface SelectorModel {
  model: LanguageModel;
  /** Extra instructions for the selector. */
  instructions?: string;
  /** Answers tried before the typed failure (an invalid name is retried). Default 3. */
  maxAttempts?: number;
  /**
   * When the choice is saved. `apart` (default): in a journal entry of its own, before the member
   * speaks — a crash during the member's turn never asks the selector again. `with-turn`: with the
   * member's turn, one journal entry per turn — a crash during the turn asks the selector again
   * (no saved turn or choice is ever redone either way).
   */
  saveChoice?: 'apart' | 'with-turn';
}

/** Options of the `groupChat` topology. */
export interface GroupChatOptions {
  /** How the next speaker is chosen. Default `round-robin` (members in declared order). */
  speaker?: 'round-robin' | SelectorModel | SpeakerFunction;
  /** Whether the last speaker may speak again at once. Default false (with two members or more). */
  allowRepeat?: boolean;
}

/**
 * The `groupChat` topology (N-12, AutoGen's RoundRobin/Selector group chats): members take turns
 * on one shared transcript; the next speaker is chosen round-robin, by a selector model (given
 * the candidates and the transcript; an invalid name is retried, then the run fails with a typed
 * `invalid-result`), or by a function. The choice is saved (`speaker-selected`) before the member
 * speaks, so a resumed run asks the same member. Each member also keeps its private context.
 */
export function groupChat(options: GroupChatOptions = {}): Topology {
  const speaker = options.speaker ?? 'round-robin';
  // Every write is built here from typed values; the speaker function's choice is checked against the candidates.
  return vouchForWrites({
    kind: 'group-chat',
    choiceWithTurn: typeof speaker !== 'object' || speaker.saveChoice === 'with-turn',
    validate(members) {
      const issues: TopologyIssue[] = [];
      if (members.size < 1) issues.push({ path: 'members', message: 'a group chat needs members' });
      if (
        typeof speaker === 'object' &&
        speaker.maxAttempts !== undefined &&
        !(Number.isInteger(speaker.maxAttempts) && speaker.maxAttempts >= 1)
      )
        issues.push({ path: 'topology.speaker.maxAttempts', message: 'must be a whole number ≥ 1' });
      return issues;
    },
    async select(state, scope) {
      const names = [...scope.members.keys()];
      const lastSpeaker = lastSpeakerOf(state, scope);
      const candidates = options.allowRepeat || names.length < 2 ? names : names.filter((name) => name !== lastSpeaker);
      const turn = state.turns + 1;
      if (speaker === 'round-robin') {
        const chosen = names[state.turns % names.length] as string;
        return selected(chosen, { type: 'speaker-selected', turn, speaker: chosen, by: 'round-robin' });
      }
      if (typeof speaker === 'function') {
        const chosen = speaker({
          task: state.task ?? '',
          transcript: state.transcript,
          turns: state.turns,
          lastSpeaker,
          candidates,
        });
        if (!candidates.includes(chosen)) {
          throw new NodeFailure({
            kind: 'invalid-result',
            message: `the speaker function chose "${String(chosen)}", not one of ${candidates.join(', ')}`,
            failure: { kind: 'invalid-result', message: 'speaker function returned a non-candidate' },
          });
        }
        return selected(chosen, { type: 'speaker-selected', turn, speaker: chosen, by: 'function' });
      }
      return selectByModel(state, scope, speaker, candidates);
    },
    async turn(state, scope) {
      const name = state.next?.speaker as string;
      const member = scope.members.get(name);
      if (!member) throw new NodeFailure({ kind: 'invalid-result', message: `the chosen speaker "${name}" is not a member` });
      const response = await callTeamModel(
        member.model,
        {
          system: memberSystem(member, state.privateNotes),
          messages: memberMessages(name, state.task ?? '', state.transcript),
          tools: [],
        },
        scope,
      );
      const turn = state.turns + 1;
      const text = response.message.content;
      const reasoning = response.message.reasoning;
      const transcript = [{ turn, speaker: name, text }];
      const usage = usageOf(response);
      const teamEvents: TeamEventPayload[] = [{ type: 'team-turn', turn, speaker: name, text }];
      // Two literals rather than one with a spread (built slowly by V8), keys in the saved order.
      return reasoning
        ? { transcript, privateNotes: [{ member: name, turn, text: reasoning }], owner: name, turns: turn, usage, teamEvents }
        : { transcript, owner: name, turns: turn, usage, teamEvents };
    },
    answerOf: (state) => state.answer ?? state.transcript.at(-1)?.text,
  });
}

function lastSpeakerOf(state: TeamState, scope: StepScope): string | undefined {
  for (let index = state.transcript.length - 1; index >= 0; index -= 1) {
    const message = state.transcript[index];
    if (message && scope.members.has(message.speaker)) return message.speaker;
  }
  return undefined;
}

function selected(speaker: string, event: TeamEventPayload, usage?: Usage): TeamUpdate {
  return usage ? { usage, next: { speaker }, teamEvents: [event] } : { next: { speaker }, teamEvents: [event] };
}

/** Asks the selector model for the next speaker; an invalid answer is retried, then a typed failure. */
async function selectByModel(
  state: TeamState,
  scope: StepScope,
  selector: SelectorModel,
  candidates: readonly string[],
): Promise<TeamUpdate> {
  const maxAttempts = selector.maxAttempts ?? 3;
  const roles = candidates.map((name) => `- ${name}: ${scope.members.get(name)?.description ?? ''}`).join('\n');
  const system = [
    selector.instructions ?? 'You choose who speaks next in a group conversation.',
    `Candidates:\n${roles}`,
    'Answer with the name of the next speaker only.',
  ].join('\n\n');
  const messages: Message[] = memberMessages('(selector)', state.task ?? '', state.transcript);
  const usage = emptyUsage();
  const answers: string[] = [];
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const response = await callTeamModel(selector.model, { system, messages, tools: [] }, scope);
    addUsage(usage, usageOf(response));
    const answer = response.message.content.trim();
    answers.push(answer);
    const chosen = candidates.find((name) => name === answer) ?? uniqueMention(answer, candidates);
    if (chosen !== undefined) {
      return selected(
        chosen,
        { type: 'speaker-selected', turn: state.turns + 1, speaker: chosen, by: 'selector-model', attempts: attempt },
        usage,
      );
    }
    messages.push({ role: 'assistant', content: response.message.content });
    messages.push({
      role: 'user',
      content: `"${answer}" is not a candidate. Answer with exactly one of: ${candidates.join(', ')}.`,
    });
  }
  throw new NodeFailure({
    kind: 'invalid-result',
    message: `the selector model chose no candidate in ${maxAttempts} attempts (${answers.map((answer) => JSON.stringify(answer)).join(', ')})`,
    failure: { kind: 'invalid-result', message: 'selector model answered no candidate' },
  });
}

/** The one candidate whose name the answer contains as a word, if exactly one does. */
function uniqueMention(answer: string, candidates: readonly string[]): string | undefined {
  const found = candidates.filter((name) => new RegExp(`(^|[^A-Za-z0-9_-])${name}($|[^A-Za-z0-9_-])`).test(answer));
  return found.length === 1 ? found[0] : undefined;
}
