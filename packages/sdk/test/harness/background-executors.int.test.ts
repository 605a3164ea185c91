/**
 * Background and resumable executor tasks (N-7, issue 37 item 4): a delegation to a background
 * role returns at once and the planner goes on; the result arrives as a later input; the task has
 * its own transcript and can be resumed by id; the run's loop budget and stop bound it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, MemoryRunStore, tool } from '../../src/index.js';
import { type ModelRequest, ScriptedModel, type ScriptedReply } from '../../src/testing/index.js';

const PLANNER = 'You plan and delegate.';
const RESEARCHER = 'You research the task you are given.';

type Responder = (request: ModelRequest) => ScriptedReply | Promise<ScriptedReply>;

function roleModel(planner: Responder, researcher: Responder) {
  return new ScriptedModel({
    respond: (request) => (request.system.startsWith(PLANNER) ? planner(request) : researcher(request)),
  });
}

const userTexts = (request: ModelRequest) =>
  request.messages.flatMap((message) => (message.role === 'user' ? [String(message.content)] : []));
const toolTexts = (request: ModelRequest) =>
  request.messages.flatMap((message) => (message.role === 'tool' ? [String(message.content)] : []));

function backgroundAgent(model: ScriptedModel, extra: { maxLoops?: number; tools?: ReturnType<typeof tool>[] } = {}) {
  return new Agent({
    name: 'lead',
    mode: 'plan-executor',
    model,
    store: new MemoryRunStore(),
    planner: { prompt: PLANNER },
    executors: [
      {
        name: 'researcher',
        description: 'Researches in the background.',
        prompt: RESEARCHER,
        background: true,
        ...(extra.tools ? { tools: extra.tools } : {}),
      },
    ],
    ...(extra.maxLoops ? { execution: { maxLoops: extra.maxLoops } } : {}),
  });
}

describe('background executor tasks (N-7)', () => {
  it('lets the planner go on; the result arrives as a later input; a finished task resumes by id with its transcript', async () => {
    const order: string[] = [];
    let plannerWentOn: () => void = () => {};
    const wentOn = new Promise<void>((resolve) => {
      plannerWentOn = resolve;
    });
    const planner: Responder = (request) => {
      const users = userTexts(request);
      const results = users.filter((text) => text.startsWith('Background task'));
      if (results.length === 0 && toolTexts(request).length === 0) {
        order.push('planner delegates');
        return { toolCalls: [{ name: 'researcher', arguments: { task: 'find the capital of France' } }] };
      }
      if (results.length === 0) {
        order.push('planner goes on');
        plannerWentOn();
        return { text: 'early answer' };
      }
      if (results.length === 1 && toolTexts(request).length === 1) {
        order.push('planner resumes');
        return { toolCalls: [{ name: 'researcher', arguments: { task: 'and of Italy?', resumeTaskId: 'entry/1/0' } }] };
      }
      if (results.length === 1) return { text: 'waiting for the second result' };
      order.push('planner answers');
      return { text: `final: ${results.map((text) => text.split('\n').at(-1)).join(' + ')}` };
    };
    const researcherRequests: ModelRequest[] = [];
    const researcher: Responder = async (request) => {
      researcherRequests.push({ ...request, messages: [...request.messages] });
      if (researcherRequests.length === 1) await wentOn;
      order.push('researcher answers');
      return { text: researcherRequests.length === 1 ? 'Paris' : 'Rome' };
    };
    const model = roleModel(planner, researcher);
    const result = await backgroundAgent(model).run({ sessionId: 's', input: 'capitals' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'final: Paris + Rome' });
    expect(order.slice(0, 3)).toEqual(['planner delegates', 'planner goes on', 'researcher answers']);
    expect(order).toContain('planner resumes');
    // The delegation's result is the task id, at once; the planner never saw the executor's messages.
    const startedText = 'Started background task entry/1/0. Keep working: its result will arrive later as a message.';
    expect(model.requests.some((request) => toolTexts(request).includes(startedText))).toBe(true);
    // The resumed task continued its own transcript: its first task, its answer, then the new input.
    const resumed = researcherRequests[1] as ModelRequest;
    expect(resumed.messages.map((message) => [message.role, String(message.content)])).toEqual([
      ['user', 'Task:\nfind the capital of France'],
      ['assistant', 'Paris'],
      ['user', 'Task:\nand of Italy?'],
    ]);
    expect(researcherRequests.every((request) => !request.system.includes(PLANNER))).toBe(true);
  });

  it('is bounded by the run loop budget', async () => {
    const ping = tool({ name: 'ping', description: 'Pings.', parameters: z.object({}), execute: () => 'pong' });
    let researcherCalls = 0;
    const model = roleModel(
      (request) =>
        toolTexts(request).length === 0
          ? { toolCalls: [{ name: 'researcher', arguments: { task: 'loop forever' } }] }
          : { toolCalls: [{ name: 'researcher', arguments: { task: 'again' } }] },
      () => {
        researcherCalls += 1;
        return { toolCalls: [{ name: 'ping' }] };
      },
    );
    const result = await backgroundAgent(model, { maxLoops: 8, tools: [ping] })
      .run({ sessionId: 's', input: 'go' })
      .result();
    expect(result).toMatchObject({ status: 'failed', reason: 'loop-budget-exhausted', loops: 8 });
    expect(researcherCalls).toBeGreaterThan(0);
  });

  it('is stopped with its run', async () => {
    let researcherCalls = 0;
    let stopNow: () => void = () => {};
    const researching = new Promise<void>((resolve) => {
      stopNow = resolve;
    });
    const model = roleModel(
      (request) =>
        toolTexts(request).length === 0
          ? { toolCalls: [{ name: 'researcher', arguments: { task: 'slow work' } }] }
          : { text: 'done planning' },
      async () => {
        researcherCalls += 1;
        stopNow();
        return { text: 'late', delayMs: 200 };
      },
    );
    const run = backgroundAgent(model).run({ sessionId: 's', input: 'go' });
    await researching;
    await run.stop();
    const result = await run.result();
    expect(result).toMatchObject({ status: 'stopped', reason: 'user-stop' });
    expect(researcherCalls).toBe(1);
  });

  it('is declared in a definition as "background": true', async () => {
    const { createAgent } = await import('../../src/index.js');
    const model = roleModel(
      () => ({ text: 'nothing to do' }),
      () => ({ text: 'never' }),
    );
    const definition = {
      formatVersion: 1,
      kind: 'agent',
      name: 'lead',
      mode: 'plan-executor',
      model: 'm',
      planner: { prompt: PLANNER },
      executors: [{ name: 'researcher', description: 'Researches.', prompt: RESEARCHER, background: true }],
    };
    await createAgent(definition, { models: { m: model } })
      .run({ sessionId: 's', input: 'x' })
      .result();
    const delegation = model.requests[0]?.tools.find((definition) => definition.name === 'researcher');
    expect(delegation?.description).toMatch(/in the background/);
    const properties = (delegation?.inputSchema.properties ?? {}) as Record<string, unknown>;
    expect(Object.keys(properties)).toContain('resumeTaskId');
  });
});
