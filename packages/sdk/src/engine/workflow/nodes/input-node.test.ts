import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunClient } from '../../../client/run-client.js';
import { InputAlreadyAnsweredError, InvalidInputAnswerError } from '../../../core/errors/index.js';
import { createWorkflow } from '../../../definitions/create-workflow.js';
import { InvalidDefinitionError } from '../../../definitions/invalid-definition-error.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import { END, START } from '../channels/channel-names.js';
import { lastValue } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';

/** Waits until the run waits for an input; answers the first. */
async function pendingOf(client: RunClient, runId: string) {
  for (;;) {
    const [pending] = await client.pendingInputs(runId).catch(() => []);
    if (pending) return pending;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the input node (issue 36, P-14.1)', () => {
  it('asks with the question filled from the state, waits, and writes the one answer it takes', async () => {
    const store = new MemoryRunStore();
    const workflow = new WorkflowBuilder({ name: 'ask', state: { topic: lastValue(z.string()), size: lastValue(z.number()) } })
      .addInputNode('size', {
        question: 'How long should the {{topic}} report be?',
        schema: { type: 'integer', minimum: 1, maximum: 10 },
        output: 'size',
      })
      .addEdge(START, 'size')
      .addEdge('size', END)
      .compile({ store });
    const run = workflow.run({ sessionId: 's', runId: 'ask-1', input: { topic: 'tides' } });
    const client = new RunClient({ store });
    const pending = await pendingOf(client, 'ask-1');
    expect(pending).toMatchObject({ question: 'How long should the tides report be?', node: 'size', taskId: '0/size' });
    expect(pending.deadlineAt).toBeUndefined();
    await expect(client.answerInput('ask-1', { value: 11 })).rejects.toSatisfy(InvalidInputAnswerError.isInstance);
    await expect(client.answerInput('ask-1', { value: 'three' })).rejects.toSatisfy(InvalidInputAnswerError.isInstance);
    await client.answerInput('ask-1', { value: 3, answeredBy: 'ann' });
    await expect(client.answerInput('ask-1', { value: 4 })).rejects.toSatisfy(InputAlreadyAnsweredError.isInstance);
    expect(await run.result()).toMatchObject({ status: 'succeeded', output: { topic: 'tides', size: 3 } });
  });

  it('is written in a definition; a placeholder naming no state field and an uncompilable schema are refused', () => {
    const definition = (question: string, schema: unknown) => ({
      formatVersion: 1,
      kind: 'workflow',
      name: 'ask',
      state: { answer: { reducer: 'last-value', schema: { type: 'string' } } },
      nodes: [{ name: 'ask', kind: 'input', question, schema, output: 'answer' }],
      edges: [
        { from: 'START', to: 'ask' },
        { from: 'ask', to: 'END' },
      ],
    });
    expect(() => createWorkflow(definition('Why?', { type: 'string' }))).not.toThrow();
    const pathsOf = (question: string, schema: unknown) => {
      try {
        createWorkflow(definition(question, schema));
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidDefinitionError);
        return (error as InvalidDefinitionError).problems.map((problem) => problem.path);
      }
      return [];
    };
    expect(pathsOf('Why {{nothing}}?', { type: 'string' })).toEqual(['nodes.0.question']);
    expect(pathsOf('Why?', { type: 'strnig' })).toEqual(['nodes.0.schema']);
  });
});
