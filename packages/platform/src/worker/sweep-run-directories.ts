import { existsSync } from 'node:fs';
import path from 'node:path';
import { createWorkspace } from '@agentloom/sdk';
import { activeAppFileRoots } from '../adapters/database/repositories/app-repository.js';
import type { PlatformContext } from '../application/context.js';

/**
 * Deletes the temporary run directories whose runs have settled (P-12.8) under every app's file
 * root. The SDK deletes a run's directory itself when the run ends in a live process; this catches
 * the runs whose worker died between the run's last journal entry and that deletion. A run still
 * running (even with a dead owner) keeps its files for whoever takes it over (P-12.10): the SDK's
 * sweep only removes directories of runs that are terminal in the store. Answers the run ids
 * whose directories went.
 */
export async function sweepRunDirectories(services: Pick<PlatformContext, 'database' | 'runStore'>): Promise<string[]> {
  const apps = await activeAppFileRoots(services.database);
  const removed: string[] = [];
  for (const app of apps) {
    if (!existsSync(path.join(app.file_root, 'runs'))) continue;
    const report = await createWorkspace({ root: app.file_root }).cleanupStaleRunDirectories(services.runStore);
    removed.push(...report.removed);
  }
  return removed;
}
