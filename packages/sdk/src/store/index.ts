export { MemoryRunStore, type MemoryRunStoreOptions } from './memory/memory-run-store.js';
export type {
  AcquireRequest,
  AcquireResult,
  AppendRequest,
  ExternalAppendRequest,
  JournalEntry,
  NewJournalEntry,
  ReadJournalOptions,
  RunRecord,
  RunStore,
  StoredRunStatus,
} from './run-store.js';
