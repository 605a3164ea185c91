/**
 * Child process of the input node crash test (issue 36). Opens the store `IN_STORE`, starts the
 * input workflow's run `IN_RUN_ID` (request `IN_REQUEST`), and, once the run has saved its question
 * and waits for an answer, prints `FROZEN waiting` for the parent to SIGKILL it. Every execution of
 * the `record` tool is appended to `IN_EFFECTS`.
 */
import { appendFileSync } from 'node:fs';
import { openStore } from '../crash/open-store.js';
import { inputWorkflow } from './input-workflow-fixture.js';

const environment = process.env;
const store = await openStore(environment.IN_STORE as string);
const workflow = inputWorkflow(store, {
  timeoutMs: Number(environment.IN_TIMEOUT_MS ?? '60000'),
  onRecord: (decision) => appendFileSync(environment.IN_EFFECTS as string, `record ${decision}\n`),
});
const run = workflow.run({
  sessionId: 'input-crash',
  runId: environment.IN_RUN_ID as string,
  input: { request: environment.IN_REQUEST },
});
for await (const event of run.events()) {
  if (event.type === 'workflow-interrupt') {
    process.stdout.write('FROZEN waiting\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  }
}
process.stdout.write(`RESULT ${JSON.stringify(await run.result())}\n`);
