export { resumeAppDeletions, runDeletionJob, startDeletionJob, stopDeletionJobs } from './deletion-job.js';
export type { DeletionContext } from './deletion-steps.js';
export { deletionView, requestAppDeletion } from './request-deletion.js';
