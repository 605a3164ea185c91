import { checkBubblewrap } from '@agentloom/sdk';
import type { WorkerCapabilities } from '../domain/run-requirements.js';

export type { WorkerCapabilities } from '../domain/run-requirements.js';

/** Probes this machine: isolation when the SDK's bubblewrap check finds a working `bwrap`. */
export function detectWorkerCapabilities(): WorkerCapabilities {
  return { isolation: checkBubblewrap().available };
}
