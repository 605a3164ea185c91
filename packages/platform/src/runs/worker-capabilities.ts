import { checkBubblewrap } from '@agentloom/sdk';

/**
 * What a worker can execute. `isolation`: bubblewrap runs here, so the worker can take runs
 * whose agent runs commands (NOT-18: never on the host, never on path checks alone).
 */
export type WorkerCapabilities = { isolation: boolean };

/** Probes this machine: isolation when the SDK's bubblewrap check finds a working `bwrap`. */
export function detectWorkerCapabilities(): WorkerCapabilities {
  return { isolation: checkBubblewrap().available };
}
