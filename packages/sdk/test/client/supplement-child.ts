/**
 * Child process of the follow wake-up test: another process's write to a SQLite store. It sends
 * the supplement `SUPPLEMENT_TEXT` to run `SUPPLEMENT_RUN_ID` of the store at `SUPPLEMENT_STORE`
 * through its own `RunClient`, prints `DONE {}` and exits.
 */
import { RunClient } from '../../src/client/run-client.js';
import { SqliteRunStore } from '../../src/store/sqlite/sqlite-run-store.js';

const environment = process.env;
const store = new SqliteRunStore({ path: environment.SUPPLEMENT_STORE as string });
await new RunClient({ store }).supplement(environment.SUPPLEMENT_RUN_ID as string, environment.SUPPLEMENT_TEXT as string);
await store.close();
process.stdout.write('DONE {}\n');
