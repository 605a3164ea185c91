/**
 * Child process of the memory crash test (N-15): runs `MEMORY_RUN_ID` on the SQLite file
 * `MEMORY_STORE` (runs and facts in one file) with a model that calls `remember` once; the fact
 * store freezes this process right after the fact was written — before the tool's result was
 * saved — so that the parent kills it there.
 */
import { Agent, type FactStore } from '../../src/index.js';
import { SqliteFactStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { openStore } from '../crash/open-store.js';
import { freezeHere } from '../helpers/child-process.js';

const environment = process.env;
const runId = environment.MEMORY_RUN_ID as string;
const file = environment.MEMORY_STORE as string;
const store = await openStore(`sqlite:${file}`);
const facts = new SqliteFactStore({ path: file });
const freezing: FactStore = {
  remember: async (scope, fact) => {
    const written = await facts.remember(scope, fact);
    freezeHere('fact-written');
    return written;
  },
  recall: (scope, options) => facts.recall(scope, options),
  forget: (scope, factId) => facts.forget(scope, factId),
  close: () => facts.close(),
};
const agent = new Agent({
  name: 'keeper',
  mode: 'react',
  model: new ScriptedModel({ respond: () => ({ toolCalls: [{ name: 'remember', arguments: { fact: 'likes green tea' } }] }) }),
  prompt: 'Remember what matters.',
  store,
  memory: { store: freezing },
  leaseMs: 1_000,
});
await agent.run({ runId, sessionId: `session-${runId}`, input: 'I like green tea', metadata: { userId: 'user-1' } }).result();
