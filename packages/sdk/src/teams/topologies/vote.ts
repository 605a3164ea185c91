import type { LanguageModel } from '../../model/language-model.js';
import { callTeamModel, memberSystem, usageOf } from '../model-turn.js';
import type { TeamState } from '../team-state.js';
import type { StepScope, Topology, TopologyIssue } from '../topology.js';

/** How the votes decide: the most votes, at least `threshold` votes, or a judge model. */
export type VoteAggregate = 'majority' | { threshold: number } | { judge: LanguageModel; instructions?: string };

/** Options of the `vote` topology. */
export interface VoteOptions {
  /** Default `majority`. */
  aggregate?: VoteAggregate;
}

/** The outcome of a vote, saved in `records.outcome`. */
export interface VoteOutcome {
  /** The winning answer, or `null` when a threshold was not met. */
  winner: string | null;
  /** Votes per answer, in the order answers were first cast. */
  counts: Record<string, number>;
  decidedBy: 'majority' | 'threshold' | 'judge';
}

const voteKey = (member: string) => `vote:${member}`;

/**
 * The `vote` topology (N-12, N-9 voting): every member answers the same question on its own (it
 * sees the task only, not the others' votes); each vote is saved with the turn that cast it
 * (`vote-cast`), so a resumed run never casts a vote twice and aggregates the saved votes again
 * without asking anyone. Majority: the answer with the most votes; a tie goes to the answer cast
 * first. Threshold: the answer with the most votes if it has at least `threshold`, else no winner.
 * Judge: a model picks among the distinct answers. The team ends `completed`.
 */
export function vote(options: VoteOptions = {}): Topology {
  const aggregate = options.aggregate ?? 'majority';
  return {
    kind: 'vote',
    validate(members) {
      const issues: TopologyIssue[] = [];
      if (typeof aggregate === 'object' && 'threshold' in aggregate) {
        if (!(Number.isInteger(aggregate.threshold) && aggregate.threshold >= 1 && aggregate.threshold <= members.size))
          issues.push({ path: 'topology.aggregate.threshold', message: `must be a whole number from 1 to ${members.size}` });
      }
      return issues;
    },
    async select(state, scope) {
      const voter = [...scope.members.keys()].find((name) => state.records[voteKey(name)] === undefined);
      if (voter !== undefined) {
        return {
          next: { speaker: voter },
          teamEvents: [{ type: 'speaker-selected', turn: state.turns + 1, speaker: voter, by: 'topology' }],
        };
      }
      const { outcome, usage } = await decide(state, scope, aggregate);
      return {
        records: { outcome },
        usage,
        ...(outcome.winner !== null ? { answer: outcome.winner } : {}),
        termination: { reason: 'completed', conditions: ['completed'], turns: state.turns },
      };
    },
    async turn(state, scope) {
      const name = state.next?.speaker as string;
      const member = scope.members.get(name);
      if (!member) throw new Error(`"${name}" is not a member`);
      const response = await callTeamModel(
        member.model,
        { system: memberSystem(member, state.privateNotes), messages: [{ role: 'user', content: state.task ?? '' }], tools: [] },
        scope,
      );
      const choice = response.message.content.trim();
      const turn = state.turns + 1;
      return {
        records: { [voteKey(name)]: choice },
        transcript: [{ turn, speaker: name, text: choice }],
        turns: turn,
        usage: usageOf(response),
        teamEvents: [
          { type: 'team-turn', turn, speaker: name, text: choice },
          { type: 'vote-cast', turn, voter: name, choice },
        ],
      };
    },
    answerOf: (state) => state.answer,
  };
}

async function decide(state: TeamState, scope: StepScope, aggregate: VoteAggregate) {
  const counts: Record<string, number> = {};
  // Votes in the order they were cast (the transcript's order), so that ties are decided the same way every time.
  for (const message of state.transcript) counts[message.text] = (counts[message.text] ?? 0) + 1;
  const ranked = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const top = ranked[0] as [string, number];
  if (aggregate === 'majority')
    return { outcome: { winner: top[0], counts, decidedBy: 'majority' } as VoteOutcome, usage: undefined };
  if ('threshold' in aggregate) {
    const winner = top[1] >= aggregate.threshold ? top[0] : null;
    return { outcome: { winner, counts, decidedBy: 'threshold' } as VoteOutcome, usage: undefined };
  }
  const response = await callTeamModel(
    aggregate.judge,
    {
      system: aggregate.instructions ?? 'You judge the answers of several members and reply with the best one, verbatim.',
      messages: [
        {
          role: 'user',
          content: `${state.task ?? ''}\n\nAnswers:\n${Object.keys(counts)
            .map((answer) => `- ${answer}`)
            .join('\n')}`,
        },
      ],
      tools: [],
    },
    scope,
  );
  return {
    outcome: { winner: response.message.content.trim(), counts, decidedBy: 'judge' } as VoteOutcome,
    usage: usageOf(response),
  };
}
