import { AgentLoomError, hasErrorCode } from '../../core/errors/agentloom-error.js';

/** One problem with one skill folder (or with a configured root). */
export interface SkillProblem {
  /** The skill folder (or root) the problem is in. */
  path: string;
  /** The front matter field concerned, when there is one. */
  field?: string;
  message: string;
}

/**
 * Skills failed validation against the Agent Skills format (K-1): missing or malformed `SKILL.md`,
 * a name that is not the folder name or not lowercase-hyphenated, a missing or too long
 * description, duplicate names, or an authorised skill that does not exist. `problems` lists every
 * problem at once. Thrown while loading, before any run uses the skills.
 */
export class InvalidSkillError extends AgentLoomError {
  readonly problems: readonly SkillProblem[];

  constructor(problems: readonly SkillProblem[]) {
    const list = problems.map(
      (problem) => `  - ${problem.path}${problem.field ? ` (${problem.field})` : ''}: ${problem.message}`,
    );
    super('invalid-skill', `Invalid skills:\n${list.join('\n')}`);
    this.problems = problems;
  }

  static override isInstance(error: unknown): error is InvalidSkillError {
    return hasErrorCode(error, 'invalid-skill');
  }
}
