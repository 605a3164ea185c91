/**
 * Child process of the team crash tests: opens the store `CRASH_STORE`, runs (or resumes) the team
 * run `CRASH_RUN_ID` of scenario `TEAM_SCENARIO`, freezing after its n-th durable write
 * (`CRASH_FREEZE_AT=append:<n>`) for the parent to SIGKILL it, and prints `RESULT <json>` and
 * `APPENDS <n>`. An `owned-elsewhere` answer (the killed owner's lease) is waited out.
 */
import type { AcquireRequest, AppendRequest, RunStore } from '../../src/store/run-store.js';
import { freezeHere, report, waitOutOwner } from '../helpers/child-process.js';
import { openStore } from './open-store.js';
import { scenarioTeam, type TeamScenario } from './team-crash-scenario.js';

const environment = process.env;
const freezeAt = environment.CRASH_FREEZE_AT ?? '';
let appends = 0;

/** Freezes this process right after its n-th durable write (0: right after creating the run). */
function freezing(store: RunStore): RunStore {
  const match = /^append:(\d+)$/.exec(freezeAt);
  const target = match ? Number(match[1]) : -1;
  const original = { acquire: store.acquire.bind(store), append: store.append.bind(store) };
  store.acquire = async (request: AcquireRequest) => {
    const answer = await original.acquire(request);
    if (target === 0 && answer.outcome === 'created') freezeHere('append:0 created');
    return answer;
  };
  store.append = async (request: AppendRequest) => {
    const written = await original.append(request);
    appends += 1;
    if (appends === target) freezeHere(`append:${appends} ${request.entries.map((entry) => entry.type).join('+')}`);
    return written;
  };
  return store;
}

const store = freezing(await openStore(environment.CRASH_STORE as string));
const team = scenarioTeam(environment.TEAM_SCENARIO as TeamScenario, store, environment.CRASH_EFFECTS as string);
for (;;) {
  const run = team.run({
    sessionId: `team-crash-${environment.CRASH_RUN_ID}`,
    runId: environment.CRASH_RUN_ID as string,
    input: 'Please handle it.',
  });
  try {
    report('RESULT', await run.result());
    break;
  } catch (error) {
    await waitOutOwner(error);
  }
}
report('APPENDS', appends);
await store.close();
