/**
 * Child process of the multi-process PostgreSQL tests. It runs (or resumes) the run
 * `TAKEOVER_RUN_ID` of a small ReAct scenario and reports everything as JSON lines on stdout:
 * `ready`, `run-start` (epoch), `tool-start`, every store write it attempts (`write`) and how it
 * ended (`write-done`), `owned-elsewhere`, then `result` or `error`.
 *
 * The scenario: `record` (saves at once), then `hold`, which waits until the parent creates the
 * file `<TAKEOVER_CONTROL_DIR>/release-<TAKEOVER_LABEL>`, then the final answer. `hold` polls the
 * file with a timer, so after a SIGSTOP/SIGCONT it completes in the same turn of the event loop as
 * the overdue lease renewal: the resumed process really attempts a write.
 *
 * Settings: `TAKEOVER_STORE` (store URL), `TAKEOVER_LEASE_MS`, `TAKEOVER_EFFECTS` (file where
 * tools append `<operationId> <tool> <attempt> <label>`), `TAKEOVER_WAIT_FOR_GO=1` (call `run`
 * only when `go` arrives on stdin), `TAKEOVER_WAIT_OUT_OWNER=1` (wait out a live owner's lease
 * and try again instead of ending on `owned-elsewhere`).
 */
import { appendFileSync, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { Agent, AgentLoomError, RunOwnedElsewhereError, type RunStore, tool } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { openStore } from '../crash/open-store.js';

const environment = process.env;
const label = environment.TAKEOVER_LABEL as string;
const report = (event: string, detail: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ event, ...detail })}\n`);

/** Reports every write this process attempts and whether the store took it. */
function reportingWrites(store: RunStore): RunStore {
  let writes = 0;
  const watch = async <T>(kind: string, detail: Record<string, unknown>, write: () => Promise<T>): Promise<T> => {
    writes += 1;
    const id = writes;
    report('write', { id, kind, ...detail });
    try {
      const value = await write();
      report('write-done', { id, kind, ok: true });
      return value;
    } catch (error) {
      report('write-done', { id, kind, ok: false, code: AgentLoomError.isInstance(error) ? error.code : String(error) });
      throw error;
    }
  };
  const original = { append: store.append.bind(store), renew: store.renewLease.bind(store) };
  store.append = (request) =>
    watch('append', { epoch: request.epoch, types: request.entries.map((entry) => entry.type) }, () => original.append(request));
  store.renewLease = (runId, epoch, leaseMs) => watch('renew', { epoch }, () => original.renew(runId, epoch, leaseMs));
  return store;
}

const record = tool({
  name: 'record',
  description: 'Records a note.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }, context) => {
    appendFileSync(environment.TAKEOVER_EFFECTS as string, `${context.operationId} record ${context.attempt} ${label}\n`);
    return `recorded ${text}`;
  },
});

const hold = tool({
  name: 'hold',
  description: 'Waits for a go-ahead.',
  parameters: z.object({ name: z.string() }),
  execute: ({ name }, context) => {
    appendFileSync(environment.TAKEOVER_EFFECTS as string, `${context.operationId} hold ${context.attempt} ${label}\n`);
    report('tool-start', { tool: 'hold', operationId: context.operationId, attempt: context.attempt });
    const releaseFile = `${environment.TAKEOVER_CONTROL_DIR}/release-${label}`;
    return new Promise<string>((resolve, reject) => {
      const poll = () => {
        if (context.signal.aborted) reject(context.signal.reason);
        else if (existsSync(releaseFile)) resolve(`held ${name}`);
        else setTimeout(poll, 20);
      };
      poll();
    });
  },
});

const model = new ScriptedModel({
  respond: (request) => {
    const results = request.messages.filter((message) => message.role === 'tool').map((message) => message.content);
    switch (request.messages.filter((message) => message.role === 'assistant').length) {
      case 0:
        return { toolCalls: [{ name: 'record', arguments: { text: 'first' } }] };
      case 1:
        return { toolCalls: [{ name: 'hold', arguments: { name: 'x' } }] };
      default:
        return { text: `Finished: ${results.join(' | ')}` };
    }
  },
});

const store = reportingWrites(await openStore(environment.TAKEOVER_STORE as string));
const agent = new Agent({
  name: 'takeover-scenario',
  mode: 'react',
  model,
  prompt: 'You are a careful assistant.',
  tools: [record, hold],
  store,
  leaseMs: Number(environment.TAKEOVER_LEASE_MS),
  execution: { retry: { enabled: true, attempts: 3, waitMs: 50 }, toolTimeoutMs: 120_000 },
});

const lines = createInterface({ input: process.stdin });
if (environment.TAKEOVER_WAIT_FOR_GO === '1') {
  report('ready');
  for await (const line of lines) if (line === 'go') break;
}
lines.close();

let exitCode = 0;
for (;;) {
  // One session per run: a new run sees its session's finished runs (C-1), which would make runs
  // sharing one schema depend on each other.
  const runId = environment.TAKEOVER_RUN_ID as string;
  const run = agent.run({ sessionId: `session-${runId}`, runId, input: 'Do the job.' });
  const events = (async () => {
    for await (const event of run.events()) if (event.type === 'run-start') report('run-start', { epoch: event.epoch });
  })();
  try {
    report('result', { result: await run.result() });
    break;
  } catch (error) {
    if (RunOwnedElsewhereError.isInstance(error)) {
      report('owned-elsewhere', { ownerId: error.ownerId, leaseExpiresAt: error.leaseExpiresAt });
      if (environment.TAKEOVER_WAIT_OUT_OWNER === '1') {
        await new Promise((resolve) => setTimeout(resolve, Math.max(20, error.leaseExpiresAt - Date.now() + 20)));
        continue;
      }
      break;
    }
    report('error', { code: AgentLoomError.isInstance(error) ? error.code : 'unexpected', message: String(error) });
    exitCode = AgentLoomError.isInstance(error) ? 0 : 1;
    break;
  } finally {
    await events;
  }
}
report('model-requests', { count: model.requests.length });
await store.close();
process.exit(exitCode);
