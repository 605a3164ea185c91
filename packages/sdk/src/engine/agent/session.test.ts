import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { RunClient } from '../../client/run-client.js';
import { RunNotActiveError } from '../../core/errors/index.js';
import type { Message } from '../../core/messages.js';
import type { ModelRequest } from '../../model/language-model.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';
import type { RunEvent } from './run-events.js';

const userTexts = (messages: readonly Message[]) =>
  messages.filter((message) => message.role === 'user').map((message) => message.content);
const lastUser = (request: ModelRequest) => userTexts(request.messages).at(-1) ?? '';

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('sessions and history (H-1…H-4, C-1)', () => {
  it('gives a new run the N most recent finished runs in full, older ones as inputs and outcomes (H-3)', async () => {
    const store = new MemoryRunStore();
    const step = tool({ name: 'step', description: 'A step.', parameters: z.object({}), execute: () => 'stepped' });
    const model = new ScriptedModel({
      respond: (request) => {
        const question = lastUser(request);
        if (question === 'q1') return { text: 'a1' };
        if (question === 'q2') return { error: { kind: 'server', message: 'down' } };
        if (question === 'q3') return { toolCalls: [{ name: 'step' }] };
        return { text: `answer to ${question}` };
      },
    });
    const agent = new Agent({ name: 'h', mode: 'react', model, prompt: 'p', tools: [step], store, context: { historyRuns: 2 } });
    expect((await agent.run({ sessionId: 's', input: 'q1' }).result()).status).toBe('succeeded');
    expect((await agent.run({ sessionId: 's', input: 'q2' }).result()).reason).toBe('model-failed');
    const third = agent.run({ sessionId: 's', input: 'q3' });
    for await (const event of third.events()) if (event.type === 'tool-call-start') third.stop();
    expect((await third.result()).status).toBe('stopped');
    model.requests.length = 0;
    await agent.run({ sessionId: 's', input: 'q4' }).result();
    const messages = model.requests[0]?.messages ?? [];
    // Run 1 (older than the two most recent finished runs) is summarised: inputs and outcome only.
    expect(messages[0]?.role).toBe('user');
    expect(messages[0]?.content).toContain('Run 1: succeeded');
    expect(messages[0]?.content).toContain('User: q1');
    expect(messages[0]?.content).toContain('Final result: a1');
    // Runs 2 (failed) and 3 (stopped) count as finished and come in full, with how they ended.
    expect(messages.slice(1).map((message) => [message.role, message.content])).toEqual([
      ['user', 'q2'],
      ['assistant', '[This run ended without a final answer: failed (model-failed).]'],
      ['user', 'q3'],
      ['assistant', ''],
      ['tool', 'stepped'],
      ['assistant', '[This run ended without a final answer: stopped (user-stop).]'],
      ['user', 'q4'],
    ]);
  });

  it('marks an unfinished run unfinished, never invents its result, and does not count it as finished', async () => {
    const store = new MemoryRunStore();
    const model = new ScriptedModel({ respond: (request) => ({ text: `answer to ${lastUser(request)}` }) });
    const agent = new Agent({ name: 'h', mode: 'react', model, prompt: 'p', store, context: { historyRuns: 1 } });
    await agent.run({ sessionId: 's', input: 'first' }).result();
    // A run that crashed and was never recovered: created, never finished.
    await store.acquire({
      runId: 'crashed',
      sessionId: 's',
      ownerId: 'dead',
      leaseMs: 1,
      deadlineAt: Date.now() + 1000,
      initialEntries: (await store.readJournal((await store.listSessionRuns('s'))[0]?.runId ?? '')).slice(0, 1).map((entry) => ({
        type: entry.type,
        data: { ...(entry.data as object), input: 'lost question' },
      })),
    });
    model.requests.length = 0;
    await agent.run({ sessionId: 's', input: 'third' }).result();
    const messages = model.requests[0]?.messages ?? [];
    expect(messages[0]?.content).toContain('Run 2: unfinished');
    expect(messages[0]?.content).toContain('User: lost question');
    expect(messages[0]?.content).toContain('Final result: none yet (the run has not finished)');
    expect(messages.slice(1).map((message) => message.content)).toEqual(['first', 'answer to first', 'third']);
  });

  it('keeps the raw record of every run apart from model-visible context (H-1, H-4)', async () => {
    const store = new MemoryRunStore();
    const model = new ScriptedModel({ respond: (request) => ({ text: `answer to ${lastUser(request)}` }) });
    const agent = new Agent({ name: 'h', mode: 'react', model, prompt: 'p', store, context: { historyRuns: 0 } });
    await agent.run({ sessionId: 's', input: 'one' }).result();
    await agent.run({ sessionId: 's', input: 'two' }).result();
    const runs = await new RunClient({ store: agent.store }).readSessionHistory('s');
    expect(runs.map((run) => [run.input, run.status, run.result?.output])).toEqual([
      ['one', 'succeeded', 'answer to one'],
      ['two', 'succeeded', 'answer to two'],
    ]);
    expect(runs[1]?.messages.map((message) => message.content)).toEqual(['two', 'answer to two']);
  });
});

describe('supplements (S-1…S-4, H-2)', () => {
  it('records a supplement as a user message and gives it to the ReAct role before its next model call', async () => {
    const released = gate();
    const wait = tool({
      name: 'wait',
      description: 'Waits.',
      parameters: z.object({}),
      execute: () => released.opened.then(() => 'waited'),
    });
    const model = new ScriptedModel({
      respond: (request) =>
        request.messages.some((message) => message.role === 'tool')
          ? { text: `saw: ${userTexts(request.messages).join(' + ')}` }
          : { toolCalls: [{ name: 'wait' }] },
    });
    const agent = new Agent({ name: 's', mode: 'react', model, prompt: 'p', tools: [wait] });
    const run = agent.run({ sessionId: 's', input: 'question' });
    const events: RunEvent[] = [];
    for await (const event of run.events()) {
      events.push(event);
      if (event.type === 'tool-call-start') {
        const receipt = await run.supplement('and also this');
        expect(receipt.supplementId).toMatch(/^supplement_/);
        released.open();
      }
    }
    expect((await run.result()).output).toBe('saw: question + and also this');
    expect(events.map((event) => event.type)).toContain('supplement-consume');
    // A run that has ended takes no supplement: its text is a new run (S-2).
    await expect(run.supplement('too late')).rejects.toSatisfy(RunNotActiveError.isInstance);
  });

  it('gives a supplement that arrives while the planner waits for a batch to the planner only, after the batch (S-3)', async () => {
    const released = gate();
    const slow = tool({
      name: 'slow',
      description: 'Slow.',
      parameters: z.object({}),
      execute: () => released.opened.then(() => 'done'),
    });
    const model = new ScriptedModel({
      respond: (request): ScriptedReply => {
        if (request.system === 'planner') {
          return request.messages.some((message) => message.role === 'tool')
            ? { text: `planner saw: ${userTexts(request.messages).join(' + ')}` }
            : { toolCalls: [{ name: 'worker', arguments: { task: 'work' } }] };
        }
        return request.messages.some((message) => message.role === 'tool')
          ? { text: 'worked' }
          : { toolCalls: [{ name: 'slow' }] };
      },
    });
    const agent = new Agent({
      name: 'p',
      mode: 'plan-executor',
      model,
      planner: { prompt: 'planner' },
      executors: [{ name: 'worker', description: 'Works.', prompt: 'worker', tools: [slow] }],
    });
    const run = agent.run({ sessionId: 's', input: 'question' });
    for await (const event of run.events()) {
      if (event.type === 'tool-call-start' && event.toolName === 'slow') {
        await run.supplement('extra context');
        released.open();
      }
    }
    expect((await run.result()).output).toBe('planner saw: question + extra context');
    const workerRequests = model.requests.filter((request) => request.system === 'worker');
    expect(workerRequests.every((request) => !JSON.stringify(request).includes('extra context'))).toBe(true);
  });

  it('carries a supplement that arrived after the last model call into the next run exactly once (S-4)', async () => {
    const store = new MemoryRunStore();
    const answering = gate();
    const model = new ScriptedModel({
      respond: async (request) => {
        if (lastUser(request) === 'first question') await answering.opened;
        return { text: `answer to ${userTexts(request.messages).slice(-2).join(' & ')}` };
      },
    });
    const agent = new Agent({ name: 's', mode: 'react', model, prompt: 'p', store, context: { historyRuns: 0 } });
    const first = agent.run({ sessionId: 's', input: 'first question' });
    for await (const event of first.events()) {
      if (event.type === 'model-call-start') {
        await first.supplement('late detail');
        answering.open();
      }
    }
    expect((await first.result()).output).toBe('answer to first question');
    const firstRecord = (await new RunClient({ store: agent.store }).readSessionHistory('s'))[0];
    expect(firstRecord?.supplements).toMatchObject([{ text: 'late detail', consumed: false }]);
    const second = await agent.run({ sessionId: 's', input: 'second question' }).result();
    expect(second.output).toBe('answer to late detail & second question');
    const third = await agent.run({ sessionId: 's', input: 'third question' }).result();
    // Not carried again: in the third run it appears only in the summary of run 1's inputs (H-3).
    const thirdMessages = model.requests.at(-1)?.messages ?? [];
    expect(thirdMessages.filter((message) => message.content === 'late detail')).toEqual([]);
    expect(thirdMessages[0]?.content).toContain('User (added during the run): late detail');
    expect(third.status).toBe('succeeded');
  });
});
