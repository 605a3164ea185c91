export { resumeAppDeletions, runDeletionJob, startDeletionJob, stopDeletionJobs } from './deletion-job.js';
export { deletionView, requestAppDeletion } from './request-deletion.js';
