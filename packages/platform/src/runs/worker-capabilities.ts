import { checkBubblewrap } from '@agentloom/sdk';

/**
 * What a worker can do, reported in the `workers` table (PLATFORM.md §4.6 "Capabilities"):
 * `isolation` is whether this machine can run scripts in the SDK's bubblewrap sandbox. A worker
 * without it must never claim a run that needs isolation (NOT-18).
 */
export type WorkerCapabilities = { isolation: boolean };

/** Detects this machine's capabilities once, through the SDK's public sandbox check. */
export function detectWorkerCapabilities(): WorkerCapabilities {
  return { isolation: checkBubblewrap().available };
}
