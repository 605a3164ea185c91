import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExecutionLog, textTool } from '../../../../test/workflow/workflow-fixtures.js';
import { tool } from '../../../capabilities/tools/tool.js';
import { InvalidRunRequestError } from '../../../core/errors/index.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import { END, START } from '../channels/channel-names.js';
import { appendList, lastValue } from '../channels/state-fields.js';
import { InterruptOutsideWorkflowError } from '../errors/workflow-errors.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import { interrupt } from './interrupt.js';

const state = { draft: lastValue(z.string()), decisions: appendList(z.string()), published: lastValue(z.string()) };

function approvalWorkflow(store: MemoryRunStore, log: ExecutionLog, questions = 1) {
  const approve = tool({
    name: 'approve',
    description: 'Asks a person to approve the draft.',
    parameters: z.object({ draft: z.string() }),
    execute: ({ draft }, context) => {
      log.calls.push({ tool: 'approve', text: draft, operationId: '' });
      const answers: string[] = [];
      for (let index = 0; index < questions; index += 1)
        answers.push(interrupt<string>(context, { question: `approve #${index + 1}?`, draft }));
      return answers.join('+');
    },
  });
  return new WorkflowBuilder({ name: 'approval', state })
    .addCapabilityNode('write', textTool('write', log, { prefix: 'draft of ' }), {
      input: { text: { value: 'report' } },
      output: 'draft',
    })
    .addCapabilityNode('approve', approve, { input: { draft: 'draft' }, output: 'decisions' })
    .addCapabilityNode('publish', textTool('publish', log), {
      input: (current) => ({ text: current.decisions.join(',') }),
      output: 'published',
    })
    .addEdge(START, 'write')
    .addEdge('write', 'approve')
    .addEdge('approve', 'publish')
    .addEdge('publish', END)
    .compile({ store });
}

describe('interrupt() and resume', () => {
  it('pauses the run, then returns the resume value to the tool, without redoing finished work', async () => {
    const store = new MemoryRunStore();
    const log = new ExecutionLog();
    const workflow = approvalWorkflow(store, log);
    const paused = await workflow.run({ sessionId: 's', runId: 'approval-1', input: { draft: '' } }).result();
    expect(paused).toMatchObject({
      status: 'interrupted',
      interrupts: [
        { id: '1/approve#0', taskId: '1/approve', node: 'approve', value: { question: 'approve #1?', draft: 'draft of report' } },
      ],
    });
    // The run keeps its place: not terminal, no owner.
    expect(await store.getRun('approval-1')).toMatchObject({ status: 'running', ownerId: null });
    // Asking again without an answer only reports the pending interrupt.
    expect((await workflow.run({ sessionId: 's', runId: 'approval-1' }).result()).status).toBe('interrupted');

    const resumed = await workflow.run({ sessionId: 's', runId: 'approval-1', resume: 'yes' }).result();
    expect(resumed).toMatchObject({ status: 'succeeded', output: { decisions: ['yes'], published: 'yes' } });
    expect(log.count('write')).toBe(1);
    expect(log.count('approve')).toBe(2);
    expect(log.count('publish')).toBe(1);
  });

  it('answers several interrupts of one task in order, each saved once given', async () => {
    const store = new MemoryRunStore();
    const log = new ExecutionLog();
    const workflow = approvalWorkflow(store, log, 2);
    await workflow.run({ sessionId: 's', runId: 'approval-2', input: {} }).result();
    const second = await workflow.run({ sessionId: 's', runId: 'approval-2', resume: 'first' }).result();
    expect(second.interrupts?.map((pending) => pending.id)).toEqual(['1/approve#1']);
    const done = await workflow.run({ sessionId: 's', runId: 'approval-2', resume: 'second' }).result();
    expect(done.output?.decisions).toEqual(['first+second']);
  });

  it('takes answers by interrupt id when parallel tasks wait, and refuses resumes that fit nothing', async () => {
    const store = new MemoryRunStore();
    const ask = tool({
      name: 'ask',
      description: 'Asks.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }, context) => `${text}=${interrupt<string>(context, text)}`,
    });
    const workflow = new WorkflowBuilder({ name: 'two-questions', state: { answers: appendList(z.string()) } })
      .addCapabilityNode('left', ask, { input: { text: { value: 'left' } }, output: 'answers' })
      .addCapabilityNode('right', ask, { input: { text: { value: 'right' } }, output: 'answers' })
      .addEdge(START, 'left')
      .addEdge(START, 'right')
      .compile({ store });
    const paused = await workflow.run({ sessionId: 's', runId: 'two', input: {} }).result();
    expect(paused.interrupts?.map((pending) => pending.id)).toEqual(['0/left#0', '0/right#0']);
    await expect(workflow.run({ sessionId: 's', runId: 'two', resume: 'both?' }).result()).rejects.toSatisfy(
      InvalidRunRequestError.isInstance,
    );
    await expect(workflow.run({ sessionId: 's', runId: 'two', resumeById: { 'x#0': 1 } }).result()).rejects.toSatisfy(
      InvalidRunRequestError.isInstance,
    );
    const half = await workflow.run({ sessionId: 's', runId: 'two', resumeById: { '0/right#0': 'R' } }).result();
    expect(half.interrupts?.map((pending) => pending.id)).toEqual(['0/left#0']);
    const done = await workflow.run({ sessionId: 's', runId: 'two', resumeById: { '0/left#0': 'L' } }).result();
    expect(done.output?.answers).toEqual(['left=L', 'right=R']);
    await expect(workflow.run({ sessionId: 's', runId: 'two', resume: 'late' }).result()).resolves.toMatchObject({
      status: 'succeeded',
    });
  });

  it('refuses a context that is not a workflow task, such as a tool inside an agent', () => {
    const context = {
      runId: 'r',
      sessionId: 's',
      taskId: 't',
      operationId: 'o',
      attempt: 1,
      signal: new AbortController().signal,
    };
    expect(() => interrupt(context, 'nowhere')).toThrow(InterruptOutsideWorkflowError);
  });
});
