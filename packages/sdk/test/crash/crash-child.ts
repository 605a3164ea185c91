/**
 * Child process of the crash tests: opens the store named by `CRASH_STORE` (`sqlite:<path>` or
 * `postgres://…?schema=<name>`, see `open-store.ts`), runs (or resumes) the
 * run `CRASH_RUN_ID`, freezing at `CRASH_FREEZE_AT` for the parent to SIGKILL it, and prints the
 * result as `RESULT <json>`. An `owned-elsewhere` answer is waited out until the lease ends.
 */
import { RunOwnedElsewhereError, type RunStore } from '../../src/index.js';
import type { AcquireRequest, AppendRequest } from '../../src/store/run-store.js';
import { waitOutOwner } from '../helpers/child-process.js';
import { freeze, type ScenarioSettings, scenarioAgent } from './crash-scenario.js';
import { openStore } from './open-store.js';

const environment = process.env;
const settings: ScenarioSettings = {
  effectsPath: environment.CRASH_EFFECTS as string,
  parallel: environment.CRASH_PARALLEL === '1',
  retry: environment.CRASH_RETRY === '1',
  ...(environment.CRASH_FREEZE_AT ? { freezeAt: environment.CRASH_FREEZE_AT } : {}),
};

/** Wraps a real store so that the process freezes right after its n-th durable write. */
let appends = 0;
function freezing(store: RunStore): RunStore {
  const match = /^append:(\d+)$/.exec(settings.freezeAt ?? '');
  const target = match ? Number(match[1]) : -1;
  const original = { acquire: store.acquire.bind(store), append: store.append.bind(store) };
  store.acquire = async (request: AcquireRequest) => {
    const answer = await original.acquire(request);
    if (target === 0 && answer.outcome === 'created') freeze('append:0 created');
    return answer;
  };
  store.append = async (request: AppendRequest) => {
    const written = await original.append(request);
    appends += 1;
    if (appends === target) freeze(`append:${appends} ${request.entries.map((entry) => entry.type).join('+')}`);
    return written;
  };
  return store;
}

const store = freezing(await openStore(environment.CRASH_STORE as string));
const { agent, model } = scenarioAgent(settings, store);
const input = 'Please do the whole job.';
for (;;) {
  const run = agent.run({
    // One session per run: a new run sees its session's finished runs (C-1), and the cases of a
    // PostgreSQL suite share one schema.
    sessionId: `crash-session-${environment.CRASH_RUN_ID}`,
    runId: environment.CRASH_RUN_ID as string,
    input,
  });
  try {
    const result = await run.result();
    const inputs = model.requests.map(
      (request) => request.messages.filter((message) => message.role === 'user' && message.content === input).length,
    );
    process.stdout.write(`INPUT-COUNTS ${JSON.stringify(inputs)}\n`);
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    break;
  } catch (error) {
    if (RunOwnedElsewhereError.isInstance(error)) process.stdout.write('OWNED-ELSEWHERE\n');
    await waitOutOwner(error);
  }
}
process.stdout.write(`APPENDS ${appends}\n`);
await store.close();
