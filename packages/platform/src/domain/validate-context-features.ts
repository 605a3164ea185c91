import type { AgentDraft } from './agent-draft.js';

/** One problem: where, a stable code and a sentence (the shape of a `FeatureIssue`). */
interface FeatureIssue {
  path: string;
  code: string;
  message: string;
}

/**
 * The problems of a draft's context features (N-15) that its schema cannot say: an entry with no
 * trigger, a pattern that is not a regular expression, and entry ids or command names given twice.
 */
export function contextFeatureIssues(context: AgentDraft['context']): FeatureIssue[] {
  const issues: FeatureIssue[] = [];
  const ids = new Set<string>();
  context.entries?.forEach((entry, index) => {
    const path = `context.entries.${index}`;
    if (ids.has(entry.id))
      issues.push({ path: `${path}.id`, code: 'duplicate', message: `Two entries are named "${entry.id}".` });
    ids.add(entry.id);
    if (entry.constant !== true && !entry.keywords?.length && entry.pattern === undefined) {
      issues.push({ path, code: 'entry-without-trigger', message: 'Make the entry constant, or give it keywords or a pattern.' });
    }
    if (entry.pattern !== undefined) {
      try {
        new RegExp(entry.pattern, 'iu');
      } catch {
        issues.push({
          path: `${path}.pattern`,
          code: 'invalid-pattern',
          message: 'The pattern is not a valid regular expression.',
        });
      }
    }
  });
  const names = new Set<string>();
  context.commands?.forEach((command, index) => {
    if (names.has(command.name)) {
      issues.push({
        path: `context.commands.${index}.name`,
        code: 'duplicate',
        message: `Two commands are named "/${command.name}".`,
      });
    }
    names.add(command.name);
  });
  return issues;
}
