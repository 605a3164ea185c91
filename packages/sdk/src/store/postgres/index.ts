export { postgresMigrations } from './migrations.js';
export { PostgresFactStore, type PostgresFactStoreOptions } from './postgres-fact-store.js';
export type { PostgresConnection, PostgresRunStoreOptions, PostgresRunStoreSettings } from './postgres-options.js';
export { PostgresRunStore } from './postgres-run-store.js';
