/**
 * Child process of the multi-process hand-over test. Both roles use a 10-minute lease,
 * so a takeover can only happen at once if the first process really released it.
 *
 * - `DETACH_ROLE=detach`: starts run `DETACH_RUN_ID` (`fast`, then `slow`, then an answer); when
 *   `slow` starts it calls `run.detach()`, lets `slow` finish within the bound, prints
 *   `DETACHED {...}` with how the handle ended, then stays alive (holding its store open) until the
 *   parent kills it: the process is live, yet it no longer owns the run.
 * - `DETACH_ROLE=take`: `agent.run({ sessionId, runId })` once, no waiting: prints `RESULT {...}`
 *   or `ERROR {...}` (e.g. `owned-elsewhere` if the lease was still held).
 *
 * Every tool execution is appended to `DETACH_LEDGER` (`<tool> <role>`), outside the store.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { Agent, AgentLoomError, tool } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { openStore } from '../crash/open-store.js';
import { report } from '../helpers/child-process.js';

const environment = process.env;
const role = environment.DETACH_ROLE as 'detach' | 'take';
const runId = environment.DETACH_RUN_ID as string;
const sessionId = `session-${runId}`;
const store = await openStore(environment.DETACH_STORE as string);
const ledger = (name: string) => appendFileSync(environment.DETACH_LEDGER as string, `${name} ${role}\n`);

let detachNow: () => void = () => {};
const slowStarted = new Promise<void>((resolve) => {
  detachNow = resolve;
});

const fast = tool({
  name: 'fast',
  description: 'Answers at once.',
  parameters: z.object({}),
  execute: () => {
    ledger('fast');
    return 'fast done';
  },
});
const slow = tool({
  name: 'slow',
  description: 'Answers after a moment.',
  parameters: z.object({}),
  execute: async () => {
    ledger('slow');
    detachNow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    return 'slow done';
  },
});
const model = new ScriptedModel({
  respond: (request) => {
    const results = request.messages.filter((message) => message.role === 'tool').length;
    if (results === 0) return { toolCalls: [{ name: 'fast' }] };
    if (results === 1) return { toolCalls: [{ name: 'slow' }] };
    return { text: 'handed over and done' };
  },
});
const agent = new Agent({ name: 'handover', mode: 'react', model, prompt: 'p', tools: [fast, slow], store, leaseMs: 600_000 });

const describe = (error: unknown) => ({
  code: AgentLoomError.isInstance(error) ? error.code : String(error),
  ...(typeof error === 'object' && error !== null ? { runId: (error as { runId?: string }).runId } : {}),
  ...(typeof error === 'object' && error !== null ? { sessionId: (error as { sessionId?: string }).sessionId } : {}),
});

if (role === 'detach') {
  const run = agent.run({ sessionId, runId, input: 'go' });
  await slowStarted;
  await run.detach({ settleMs: 30_000 });
  const outcome = await run.result().then(
    (result) => ({ ended: result.status }),
    (error: unknown) => describe(error),
  );
  report('DETACHED', { ...outcome, modelRequests: model.requests.length });
  setInterval(() => {}, 60_000);
} else {
  try {
    const result = await agent.run({ sessionId, runId }).result();
    report('RESULT', { status: result.status, output: result.output, loops: result.loops, modelRequests: model.requests.length });
  } catch (error) {
    report('ERROR', describe(error));
  }
  await store.close();
}
