import type { Message } from '../../core/messages.js';
import { NodeFailure } from '../../engine/workflow/nodes/workflow-node.js';
import { callTeamModel, memberSystem, usageOf } from '../model-turn.js';
import type { TeamState } from '../team-state.js';
import type { Topology, TopologyIssue } from '../topology.js';

/** Options of the `evaluatorOptimizer` topology. */
export interface EvaluatorOptimizerOptions {
  /** The member that writes (and rewrites) the answer. */
  generator: string;
  /** The member that judges each draft: it answers JSON `{"pass": boolean, "feedback": string}`. */
  evaluator: string;
  /** Drafts allowed; a failed last draft ends the team `iteration-limit`. Default 3. */
  maxIterations?: number;
}

/** One evaluation, saved in `records["evaluation:<n>"]`. */
export interface Evaluation {
  pass: boolean;
  feedback: string;
}

/**
 * The `evaluatorOptimizer` topology (N-9, N-12): generate → evaluate (pass/fail and feedback) →
 * regenerate with the feedback, until a pass (`completed`, the passing draft is the answer) or
 * `maxIterations` drafts (`iteration-limit`, the last draft is the answer). Every draft and verdict
 * is a saved turn; a resumed run continues from the last one. An evaluator's answer that is not
 * the JSON verdict is a fail whose feedback is that answer.
 */
export function evaluatorOptimizer(options: EvaluatorOptimizerOptions): Topology {
  const maxIterations = options.maxIterations ?? 3;
  return {
    kind: 'evaluator-optimizer',
    validate(members) {
      const issues: TopologyIssue[] = [];
      for (const role of ['generator', 'evaluator'] as const) {
        if (!members.has(options[role])) issues.push({ path: `topology.${role}`, message: `"${options[role]}" is not a member` });
      }
      if (options.generator === options.evaluator)
        issues.push({ path: 'topology.evaluator', message: 'must differ from the generator' });
      if (!(Number.isInteger(maxIterations) && maxIterations >= 1))
        issues.push({ path: 'topology.maxIterations', message: 'must be a whole number ≥ 1' });
      return issues;
    },
    async select(state) {
      const drafts = draftsOf(state, options.generator);
      const last = state.transcript.at(-1);
      const turn = state.turns + 1;
      if (last?.speaker === options.evaluator) {
        const verdict = state.records[`evaluation:${drafts.length}`] as Evaluation | undefined;
        if (verdict?.pass)
          return {
            answer: drafts.at(-1) as string,
            termination: { reason: 'completed', conditions: ['completed'], turns: state.turns },
          };
        if (drafts.length >= maxIterations) {
          return {
            answer: drafts.at(-1) as string,
            termination: { reason: 'iteration-limit', conditions: ['iteration-limit'], turns: state.turns },
          };
        }
      }
      const speaker = last?.speaker === options.generator ? options.evaluator : options.generator;
      return { next: { speaker }, teamEvents: [{ type: 'speaker-selected', turn, speaker, by: 'topology' }] };
    },
    async turn(state, scope) {
      const name = state.next?.speaker as string;
      const member = scope.members.get(name);
      if (!member) throw new NodeFailure({ kind: 'invalid-result', message: `"${name}" is not a member` });
      const drafts = draftsOf(state, options.generator);
      const messages: Message[] = [{ role: 'user', content: state.task ?? '' }];
      if (name === options.generator && drafts.length > 0) {
        const verdict = state.records[`evaluation:${drafts.length}`] as Evaluation | undefined;
        messages.push({ role: 'assistant', content: drafts.at(-1) as string });
        messages.push({ role: 'user', content: `[${options.evaluator}]: ${verdict?.feedback ?? ''}\nRevise your answer.` });
      }
      if (name === options.evaluator) {
        messages.push({
          role: 'user',
          content: `[${options.generator}]: ${drafts.at(-1) ?? ''}\n\nAnswer with JSON {"pass": boolean, "feedback": string}.`,
        });
      }
      const response = await callTeamModel(
        member.model,
        { system: memberSystem(member, state.privateNotes), messages, tools: [] },
        scope,
      );
      const text = response.message.content;
      const turn = state.turns + 1;
      const records = name === options.evaluator ? { [`evaluation:${drafts.length}`]: verdictOf(text) } : {};
      return {
        records,
        transcript: [{ turn, speaker: name, text }],
        owner: name,
        turns: turn,
        usage: usageOf(response),
        teamEvents: [{ type: 'team-turn', turn, speaker: name, text }],
      };
    },
    answerOf: (state) => draftsOf(state, options.generator).at(-1),
  };
}

function draftsOf(state: TeamState, generator: string): string[] {
  return state.transcript.filter((message) => message.speaker === generator).map((message) => message.text);
}

function verdictOf(text: string): Evaluation {
  try {
    const parsed = JSON.parse(/```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1] ?? text) as { pass?: unknown; feedback?: unknown };
    if (typeof parsed.pass === 'boolean')
      return { pass: parsed.pass, feedback: typeof parsed.feedback === 'string' ? parsed.feedback : '' };
  } catch {
    // Not JSON: a fail, its text the feedback.
  }
  return { pass: false, feedback: text };
}
