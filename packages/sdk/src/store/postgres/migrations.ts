/**
 * Schema migrations of `PostgresRunStore`. The position in the list is the version number: a
 * migration, once released, is never edited, only followed by a new one. `setup()` runs each one
 * with `search_path` set to the store's schema, so the statements name tables without a schema.
 *
 * Data and results are JSON kept as `text`, exactly as the SDK serialised it (ADR 0002): `jsonb`
 * would reorder object keys and refuse `\u0000`, so a recovered run could differ from the live one.
 * Times are epoch milliseconds of the database's clock, as `bigint`.
 */
export const postgresMigrations: readonly string[] = [
  `CREATE TABLE agentloom_runs (
     run_id text PRIMARY KEY,
     session_id text NOT NULL,
     status text NOT NULL,
     owner_id text,
     epoch integer NOT NULL,
     lease_expires_at bigint NOT NULL,
     deadline_at bigint NOT NULL,
     loops_used integer NOT NULL,
     last_sequence integer NOT NULL,
     created_at bigint NOT NULL,
     updated_at bigint NOT NULL,
     created_order bigint GENERATED ALWAYS AS IDENTITY,
     result text
   );
   CREATE INDEX agentloom_runs_session ON agentloom_runs (session_id, created_at, created_order);
   CREATE TABLE agentloom_journal (
     run_id text NOT NULL REFERENCES agentloom_runs (run_id) ON DELETE CASCADE,
     sequence integer NOT NULL,
     epoch integer NOT NULL,
     type text NOT NULL,
     task_id text,
     data text NOT NULL,
     at bigint NOT NULL,
     PRIMARY KEY (run_id, sequence)
   );`,
  // 2: what a run is (kind, name, host metadata) on its row, and the index of newest-first listings.
  `ALTER TABLE agentloom_runs ADD COLUMN kind text NOT NULL DEFAULT 'agent';
   ALTER TABLE agentloom_runs ADD COLUMN name text NOT NULL DEFAULT '';
   ALTER TABLE agentloom_runs ADD COLUMN metadata text NOT NULL DEFAULT '{}';
   CREATE INDEX agentloom_runs_created ON agentloom_runs (created_at, run_id);`,
];
