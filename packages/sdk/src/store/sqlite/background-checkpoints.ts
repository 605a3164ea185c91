import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** A running background checkpointer; `stop` ends its thread and closes its connection. */
export interface BackgroundCheckpoints {
  stop(): Promise<void>;
}

/** How often the checkpointer copies committed WAL frames into the database file, by default. */
const defaultIntervalMs = 250;

/**
 * The checkpointer thread's code. CommonJS evaluated as a string, so that it needs no file of its
 * own next to a bundle (the platform's CLI is one file); it loads better-sqlite3 from the path the
 * main thread resolved. A `PASSIVE` checkpoint never waits for a lock and never blocks a writer or
 * a reader: what it cannot copy now it copies at a later tick.
 */
const checkpointerCode = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.path, { fileMustExist: true });
database.pragma('busy_timeout = 0');
const checkpoint = () => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Locked by another checkpointer or a schema change: the next tick tries again.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  database.close();
  parentPort.close();
});
`;

/**
 * Copies a WAL-mode SQLite file's committed frames into the database file from a thread of its
 * own, every `intervalMs`. SQLite's automatic checkpoint runs inside the commit that crosses 1,000
 * WAL pages, on the committing thread: that commit then writes and syncs the database file, tens
 * of milliseconds during which an event loop stands still (issue 34: the platform's slowest
 * commits and event-loop delays under a burst of runs). A connection that hands its checkpoints to
 * this thread sets `wal_autocheckpoint = 0`; the WAL stays bounded by what is committed between
 * two ticks (plus what a long reader holds back, as with automatic checkpoints).
 */
export function startBackgroundCheckpoints(path: string, options: { intervalMs?: number } = {}): BackgroundCheckpoints {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(checkpointerCode, {
    eval: true,
    workerData: { path, driver, intervalMs: options.intervalMs ?? defaultIntervalMs },
    // The thread never keeps a process alive, and never inherits loaders (tsx) it does not need.
    execArgv: [],
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => resolve());
    worker.once('error', () => resolve());
  });
  return {
    async stop() {
      // Held while it stops: an unreferenced thread alone would let the process end before the
      // thread's last checkpoint and exit, leaving the caller's `await` unsettled.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
