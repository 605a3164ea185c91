export { startA2aPushDeliverer } from './a2a-push-deliverer.js';
export { type JournalWrites, RELAYED_CHECK_MS, receiveJournalWrites, relayJournalWrites } from './journal-write-relay.js';
export { RunWorker, type RunWorkerOptions } from './run-worker.js';
export { startSweeper } from './sweeper.js';
export { startWebhookDeliverer } from './webhook-deliverer.js';
export { detectWorkerCapabilities, type WorkerCapabilities } from './worker-capabilities.js';
export {
  type WorkerChildMessage,
  type WorkerParentMessage,
  type WorkerProcessControl,
  type WorkerProcessOwner,
  WorkerSupervisor,
} from './worker-supervisor.js';
