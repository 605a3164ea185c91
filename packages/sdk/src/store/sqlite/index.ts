export { SqliteRunStore, type SqliteRunStoreOptions } from './sqlite-run-store.js';
