/**
 * Child process of the model-fallback crash test (N-15): runs `FALLBACK_RUN_ID` on the SQLite file
 * `FALLBACK_STORE` with an agent whose first model fails for good (a server error, retries off)
 * and whose fallback model freezes this process on its first call — after the move to it was
 * journaled and before it answered — so that the parent kills it there.
 */
import { Agent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { openStore } from '../crash/open-store.js';
import { freezeHere } from '../helpers/child-process.js';

const environment = process.env;
const runId = environment.FALLBACK_RUN_ID as string;
const store = await openStore(environment.FALLBACK_STORE as string);
const primary = new ScriptedModel({
  modelId: 'primary',
  respond: () => ({ error: { kind: 'server', status: 529, message: 'overloaded' } }),
});
const backup = new ScriptedModel({
  modelId: 'backup',
  respond: () => {
    freezeHere('backup-called');
    return { text: 'never' };
  },
});
const agent = new Agent({
  name: 'fallback',
  mode: 'react',
  model: primary,
  fallbackModels: [backup],
  prompt: 'Answer.',
  store,
  leaseMs: 1_000,
  execution: { retry: { enabled: false } },
});
await agent.run({ runId, sessionId: `session-${runId}`, input: 'hello' }).result();
