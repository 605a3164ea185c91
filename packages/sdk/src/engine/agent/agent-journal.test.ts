import { describe, expect, it } from 'vitest';
import type { Commit } from '../run/durable-run.js';
import type { AgentJournalRecord } from './agent-journal.js';

/**
 * The journal is typed: an engine commit is checked against the union of agent records at compile
 * time (`npm test` type-checks first, and an unused `@ts-expect-error` fails it).
 */
describe('typed agent journal', () => {
  it('refuses a misspelt record type or a wrong field at compile time', () => {
    const commit = (value: Commit<AgentJournalRecord>) => value;
    // @ts-expect-error a misspelt record type does not compile
    commit({ entries: [{ type: 'loop-startd', taskId: 'entry', data: { loop: 1 } }] });
    // @ts-expect-error a field of the wrong type does not compile
    commit({ entries: [{ type: 'loop-started', taskId: 'entry', data: { loop: 'one' } }] });
    // @ts-expect-error a record that belongs to a task needs its task id
    commit({ entries: [{ type: 'batch-joined', data: { loop: 1 } }] });
    expect(commit({ entries: [{ type: 'loop-started', taskId: 'entry', data: { loop: 1 } }] }).entries).toHaveLength(1);
  });
});
