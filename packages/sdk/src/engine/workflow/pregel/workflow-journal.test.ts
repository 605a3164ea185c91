import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import type { JournalEntry } from '../../../store/run-store.js';
import { END, START } from '../channels/channel-names.js';
import { appendList } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import type { Recorder } from './recorder.js';
import { type WorkflowJournalRecord, workflowJournal } from './workflow-journal.js';

/**
 * The workflow journal is typed like the agent's: every write and read goes through
 * `WorkflowJournalRecord`. The `@ts-expect-error` lines are checked by `npm run typecheck`: each
 * must be an error, so a misspelt record type, a wrong field or a read of a type the union lacks
 * does not compile.
 */
describe('the workflow journal', () => {
  it('does not compile a misspelt record type, a wrong field, or a read of a type it lacks', () => {
    const records: WorkflowJournalRecord[] = [
      { type: 'task-finished', taskId: '0/a', data: { step: 0, writes: [['notes', 'a']] } },
      // @ts-expect-error 'task-finish' is an event's type, not a record's.
      { type: 'task-finish', taskId: '0/a', data: { step: 0, writes: [] } },
      // @ts-expect-error a finished task's data has its superstep.
      { type: 'task-finished', taskId: '0/a', data: { writes: [] } },
      // @ts-expect-error a resume answers by interrupt id, in `values`.
      { type: 'resume-accepted', data: { answers: {} } },
    ];
    const journal: JournalEntry[] = records.map((record, index) => ({ ...record, sequence: index + 1, epoch: 1, at: 0 }));
    // @ts-expect-error the journal has `workflow-started`, never `workflow-start`.
    expect(workflowJournal.find(journal, 'workflow-start')).toBeUndefined();
    const recorder = { record: async () => {} } as unknown as Recorder;
    // @ts-expect-error the recorder takes records of the union only.
    void recorder.record([{ type: 'task-finised', taskId: '0/a', data: { step: 0, writes: [] } }]);
    // A typed read needs no cast: its data is the record's own.
    expect(workflowJournal.find(journal, 'task-finished')?.data.writes).toEqual([['notes', 'a']]);
  });

  it("reads a run's stored journal back as the records the engine wrote", async () => {
    const store = new MemoryRunStore();
    const workflow = new WorkflowBuilder({ name: 'journal', state: { notes: appendList(z.string()) } })
      .addNode('a', () => ({ notes: ['a'] }))
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile({ store });
    const run = workflow.run({ sessionId: 's', input: { notes: ['start'] } });
    expect(await run.result()).toMatchObject({ status: 'succeeded' });
    const journal = await store.readJournal(run.runId);
    const types = journal.map((entry) => {
      const record = workflowJournal.recordOf(entry);
      switch (record.type) {
        case 'workflow-started':
          return `${record.type} ${record.data.workflow} ${record.data.durability}`;
        case 'task-finished':
          return `${record.type} ${record.taskId} step ${record.data.step}`;
        case 'workflow-finished':
          return `${record.type} ${record.data.status} after ${record.data.steps}`;
        default:
          return record.type;
      }
    });
    expect(types).toEqual(['workflow-started journal sync', 'task-finished 0/a step 0', 'workflow-finished succeeded after 1']);
    expect(workflowJournal.find(journal, 'workflow-started')?.data.input).toEqual({ notes: ['start'] });
  });
});
