/**
 * Child process of the code-orchestration crash test (N-15): runs `SCRIPT_RUN_ID` on the SQLite
 * file `SCRIPT_STORE` with a model that sends one script making three `step` calls. The `step`
 * tool appends each call to `SCRIPT_CALLS` (counted at the tool, across processes) and freezes this
 * process on the third call — inside the script, after its first two calls were saved — so that
 * the parent kills it there.
 */
import { appendFileSync } from 'node:fs';
import { Agent } from '../../src/index.js';
import { openStore } from '../crash/open-store.js';
import { freezeHere } from '../helpers/child-process.js';
import { scriptAgentOptions } from './code-orchestration-fixture.js';

const environment = process.env;
const runId = environment.SCRIPT_RUN_ID as string;
const store = await openStore(environment.SCRIPT_STORE as string);
const agent = new Agent(
  scriptAgentOptions(store, (n) => {
    appendFileSync(environment.SCRIPT_CALLS as string, `child ${n}\n`);
    if (n === 3) freezeHere('third-call');
  }),
);
await agent.run({ runId, sessionId: `session-${runId}`, input: 'step three times' }).result();
