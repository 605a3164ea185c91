import { NodeFailure } from '../../engine/workflow/nodes/workflow-node.js';
import { callTeamModel, memberSystem, usageOf } from '../model-turn.js';
import type { TeamState } from '../team-state.js';
import type { Topology, TopologyIssue } from '../topology.js';

/** Options of the `review` topology. */
export interface ReviewOptions {
  /** Members that look for problems (each answers a JSON list of problem descriptions). */
  reviewers: readonly string[];
  /** The member that checks each problem on its own (answers JSON `{"verified": boolean}`). */
  verifier: string;
}

/** A problem a reviewer found, saved in `records["problem:<reviewer>:<n>"]`. */
export interface FoundProblem {
  reviewer: string;
  description: string;
  /** Set once the verifier checked it. */
  verified?: boolean;
}

/**
 * The `review` topology (N-12, the seed's definition): reviewers find problems, each found problem
 * is verified separately (one verifier turn per problem, seeing that problem only), and the
 * unverified ones are dropped. The answer is the JSON list of verified problems. Every finding
 * and every verdict is a saved turn: a resumed run verifies nothing twice.
 */
export function review(options: ReviewOptions): Topology {
  return {
    kind: 'review',
    validate(members) {
      const issues: TopologyIssue[] = [];
      for (const name of [...options.reviewers, options.verifier]) {
        if (!members.has(name)) issues.push({ path: 'topology', message: `"${name}" is not a member` });
      }
      if (options.reviewers.length === 0) issues.push({ path: 'topology.reviewers', message: 'a review needs reviewers' });
      return issues;
    },
    async select(state) {
      const turn = state.turns + 1;
      const reviewer = options.reviewers.find((name) => state.records[`reviewed:${name}`] === undefined);
      if (reviewer !== undefined)
        return {
          next: { speaker: reviewer },
          teamEvents: [{ type: 'speaker-selected', turn, speaker: reviewer, by: 'topology' }],
        };
      const open = problemsOf(state).find(([, problem]) => problem.verified === undefined);
      if (open) {
        const speaker = options.verifier;
        return { next: { speaker, subject: open[0] }, teamEvents: [{ type: 'speaker-selected', turn, speaker, by: 'topology' }] };
      }
      const verified = problemsOf(state).flatMap(([, problem]) =>
        problem.verified ? [{ reviewer: problem.reviewer, description: problem.description }] : [],
      );
      return {
        answer: JSON.stringify(verified),
        termination: { reason: 'completed', conditions: ['completed'], turns: state.turns },
      };
    },
    async turn(state, scope) {
      const name = state.next?.speaker as string;
      const member = scope.members.get(name);
      if (!member) throw new NodeFailure({ kind: 'invalid-result', message: `"${name}" is not a member` });
      const subject = state.next?.subject;
      const problem = subject !== undefined ? (state.records[subject] as FoundProblem) : undefined;
      const content = problem
        ? `${state.task ?? ''}\n\nA reviewer reports this problem: ${problem.description}\nCheck it. Answer with JSON {"verified": boolean}.`
        : `${state.task ?? ''}\n\nList the problems you find as a JSON array of strings.`;
      const response = await callTeamModel(
        member.model,
        { system: memberSystem(member, state.privateNotes), messages: [{ role: 'user', content }], tools: [] },
        scope,
      );
      const text = response.message.content;
      const turn = state.turns + 1;
      const records: Record<string, unknown> = {};
      if (problem && subject !== undefined) {
        records[subject] = { ...problem, verified: verifiedOf(text) };
      } else {
        records[`reviewed:${name}`] = true;
        listOf(text).forEach((description, index) => {
          records[`problem:${name}:${index}`] = { reviewer: name, description } satisfies FoundProblem;
        });
      }
      return {
        records,
        transcript: [{ turn, speaker: name, text }],
        turns: turn,
        usage: usageOf(response),
        teamEvents: [{ type: 'team-turn', turn, speaker: name, text }],
      };
    },
    answerOf: (state) => state.answer,
  };
}

/** The found problems in the order they were found (reviewers in order, then index). */
function problemsOf(state: TeamState): [string, FoundProblem][] {
  return Object.entries(state.records)
    .filter(([key]) => key.startsWith('problem:'))
    .map(([key, value]) => [key, value as FoundProblem] as [string, FoundProblem])
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
}

function parse(text: string): unknown {
  try {
    return JSON.parse(/```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1] ?? text);
  } catch {
    return undefined;
  }
}

function listOf(text: string): string[] {
  const parsed = parse(text);
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
}

/** Only an explicit `{"verified": true}` verifies a problem: anything else drops it. */
function verifiedOf(text: string): boolean {
  const parsed = parse(text) as { verified?: unknown } | undefined;
  return parsed?.verified === true;
}
