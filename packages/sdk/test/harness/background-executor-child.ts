/**
 * Child process of the background-executor crash test (N-7): runs `BACKGROUND_RUN_ID` on the
 * SQLite file `BACKGROUND_STORE`; the background task's first model call freezes this process, so
 * that the parent kills it while the task runs beside the planner.
 */
import { openStore } from '../crash/open-store.js';
import { freezeHere } from '../helpers/child-process.js';
import { backgroundCrashAgent } from './background-executor-fixture.js';

const runId = process.env.BACKGROUND_RUN_ID as string;
const store = await openStore(process.env.BACKGROUND_STORE as string);
const agent = backgroundCrashAgent(store, () => {
  freezeHere('background-task-running');
  return { text: 'never' };
});
await agent.run({ runId, sessionId: `session-${runId}`, input: 'capital of France' }).result();
