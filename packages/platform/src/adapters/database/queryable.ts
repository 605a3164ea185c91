import type { Kysely, Transaction } from 'kysely';
import type { PlatformDatabase } from './schema.js';

/** The platform database or a transaction on it: what every repository function reads and writes through. */
export type Queryable = Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;
