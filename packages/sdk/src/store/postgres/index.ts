export { postgresMigrations } from './migrations.js';
export type { PostgresConnection, PostgresRunStoreOptions, PostgresRunStoreSettings } from './postgres-options.js';
export { PostgresRunStore } from './postgres-run-store.js';
