import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunStore } from '../store/run-store.js';
import { RunNotSettledError } from './sandbox-errors.js';
import { checkpointDirectory, layout, readLedgerDirectory, runDirectory } from './workspace-layout.js';

/** What `cleanupRun` did. */
export interface CleanupOutcome {
  runId: string;
  /** `removed` now; `already-removed` by an earlier call; `kept-persistent`: the sandbox is persistent. */
  outcome: 'removed' | 'already-removed' | 'kept-persistent';
}

/** What a stale sweep did. */
export interface StaleCleanupReport {
  removed: string[];
  /** Directories kept: their run is still running, unknown to the store, or could not be identified. */
  kept: { directory: string; runId?: string; status: string }[];
}

/**
 * Deletes a temporary run directory (work files, drafts, products) and its file checkpoints, but
 * only when the run is terminal in the store (S-5, F-4). Never on a disconnect or a crash: a run
 * that is still `running` — even with a dead owner — keeps its files for the process that takes it
 * over (F-5). Calling it again is harmless.
 */
export async function cleanupRunDirectory(root: string, runId: string, store: RunStore): Promise<CleanupOutcome> {
  const run = await store.getRun(runId);
  if (!run) throw new RunNotSettledError(runId, 'missing');
  if (run.status === 'running') throw new RunNotSettledError(runId, run.status);
  const directory = runDirectory(root, runId);
  const existed = await exists(directory);
  await rm(directory, { recursive: true, force: true });
  await rm(checkpointDirectory(root, false, { sessionId: run.sessionId, runId }), { recursive: true, force: true });
  await rm(readLedgerDirectory(root, runId), { recursive: true, force: true });
  return { runId, outcome: existed ? 'removed' : 'already-removed' };
}

/**
 * Deletes what a settled run of a persistent work directory read (its file-read ledger, N-15):
 * the files stay with the session, the ledger belongs to the run. Refused like
 * `cleanupRunDirectory` while the run is not terminal.
 */
export async function cleanupRunReadLedger(root: string, runId: string, store: RunStore): Promise<void> {
  const run = await store.getRun(runId);
  if (!run) throw new RunNotSettledError(runId, 'missing');
  if (run.status === 'running') throw new RunNotSettledError(runId, run.status);
  await rm(readLedgerDirectory(root, runId), { recursive: true, force: true });
}

/**
 * Sweeps `<root>/runs`: deletes the directories of runs that are terminal in the store (their owner
 * died after the result was saved but before cleaning up), keeps every other one.
 */
export async function cleanupStaleRunDirectories(root: string, store: RunStore): Promise<StaleCleanupReport> {
  const report: StaleCleanupReport = { removed: [], kept: [] };
  const base = join(root, layout.runs);
  const names = await readdir(base).catch(() => [] as string[]);
  for (const name of names.sort()) {
    const directory = join(base, name);
    const runId = await runIdOf(directory, name);
    if (runId === undefined) {
      report.kept.push({ directory, status: 'unidentified' });
      continue;
    }
    try {
      await cleanupRunDirectory(root, runId, store);
      report.removed.push(runId);
    } catch (error) {
      if (!RunNotSettledError.isInstance(error)) throw error;
      report.kept.push({ directory, runId, status: error.status });
    }
  }
  return report;
}

async function runIdOf(directory: string, name: string): Promise<string | undefined> {
  try {
    const marker = JSON.parse(await readFile(join(directory, layout.runMarker), 'utf8')) as { runId?: unknown };
    if (typeof marker.runId === 'string') return marker.runId;
  } catch {
    // No marker: fall back to decoding the directory name.
  }
  if (name.startsWith('~')) return Buffer.from(name.slice(1), 'base64url').toString('utf8');
  if (name.startsWith('=')) return undefined;
  return name;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
