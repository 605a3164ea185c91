import { describe, expect, it, vi } from 'vitest';
import type { InvocationContext as EngineContext } from './task-invocation.js';
import { TaskInvocation } from './task-invocation.js';
import type { WorkflowJournalRecord } from './workflow-journal.js';
import type { PlannedTask, WorkflowRunState } from './workflow-state.js';

/** An engine context with only what an invocation reads; the recorder and events are spies. */
function contextOf(extra: Partial<EngineContext> = {}) {
  const recorded: WorkflowJournalRecord[][] = [];
  const record = vi.fn(async (entries: WorkflowJournalRecord[]) => {
    recorded.push(entries);
  });
  const state = {
    values: { text: 'a' },
    deadlineAt: 1_000,
    resumeValues: new Map(),
    durability: 'sync',
    agentRuns: new Map(),
    notes: new Map([['3/node', { intent: 'kept' }]]),
  } as unknown as WorkflowRunState;
  const context = {
    graph: { definition: { state: {} } },
    state,
    runId: 'run-1',
    sessionId: 'session-1',
    control: { signal: new AbortController().signal },
    hardSignal: new AbortController().signal,
    stopSignal: new AbortController().signal,
    recorder: { record, recordDurably: record },
    emit: vi.fn(),
    now: () => 5,
    ...extra,
  } as unknown as EngineContext;
  return { context, recorded };
}

const task: PlannedTask = { id: '3/node', node: 'node', kind: 'pull', triggers: [] };

describe('TaskInvocation (issue 31)', () => {
  it('holds no function of its own per task but the clock: its operations are methods and made on use', () => {
    const { context } = contextOf();
    const invocation = new TaskInvocation(context, task, 3, 1, undefined);
    const ownFunctions = Object.entries(invocation).filter(([, value]) => typeof value === 'function');
    expect(ownFunctions.map(([key]) => key)).toEqual(['now']);
    expect(invocation).toMatchObject({ runId: 'run-1', taskId: '3/node', step: 3, attempt: 1, state: { text: 'a' } });
    expect(invocation.payload).toBeUndefined();
    expect(new TaskInvocation(context, { ...task, kind: 'push', payload: 7 }, 3, 1, undefined).payload).toEqual({ value: 7 });
  });

  it('reads and writes its call notes through one journal object, made on first use', async () => {
    const { context, recorded } = contextOf();
    const invocation = new TaskInvocation(context, task, 3, 1, undefined);
    expect(invocation.callJournal).toBe(invocation.callJournal);
    expect(invocation.callJournal.read('intent')).toBe('kept');
    await invocation.callJournal.write('next', { n: 1 });
    expect(recorded).toEqual([[{ type: 'task-noted', taskId: '3/node', data: { step: 3, key: 'next', value: { n: 1 } } }]]);
  });

  it('records an agent run and answers taken out of the invocation, as an input node does', async () => {
    const recordAnswer = vi.fn(async () => {});
    const { context, recorded } = contextOf({ recordAnswer });
    const invocation = new TaskInvocation(context, task, 3, 2, 4);
    await invocation.recordAgentRun({ runId: 'inner', sessionId: 'inner-session' });
    expect(recorded).toEqual([
      [{ type: 'agent-invoked', taskId: '3/node', data: { step: 3, runId: 'inner', sessionId: 'inner-session', loopBudget: 4 } }],
    ]);
    expect(context.emit).toHaveBeenCalledWith(expect.objectContaining({ type: 'agent-invoke', agentRunId: 'inner' }));
    const { recordAnswer: taken } = invocation;
    const answer = { interruptId: 'i', value: 'v', answeredBy: 'timeout' as const, timedOut: true as const };
    await taken?.(answer);
    expect(recordAnswer).toHaveBeenCalledWith('3/node', answer);
    expect(new TaskInvocation(contextOf().context, task, 3, 1, undefined).recordAnswer).toBeUndefined();
  });
});
