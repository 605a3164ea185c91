export { type DatabaseDialect, type DatabaseLocation, openPlatformDatabase, type PlatformDatabaseHandle } from './connect.js';
export { MigrationFailedError, migrateToLatest } from './migrate.js';
export type * from './schema.js';
