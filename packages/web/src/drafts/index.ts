export { DraftConflictAlert, DraftIssueList } from './draft-alerts.js';
export { DraftSaveAndCheck, DraftStatus } from './draft-status.js';
export { type DraftEdit, useAppWithDraft } from './use-app-draft.js';
