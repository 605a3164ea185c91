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
  // 2: what a run is (kind, name, host metadata) on its row, the index of newest-first listings,
  // and a summary row per session kept by triggers, so that listing sessions never groups all runs.
  // The trigger function keeps the search_path it was created with: the store's schema.
  `ALTER TABLE agentloom_runs ADD COLUMN kind text NOT NULL DEFAULT 'agent';
   ALTER TABLE agentloom_runs ADD COLUMN name text NOT NULL DEFAULT '';
   ALTER TABLE agentloom_runs ADD COLUMN metadata text NOT NULL DEFAULT '{}';
   CREATE INDEX agentloom_runs_created ON agentloom_runs (created_at, run_id);
   CREATE TABLE agentloom_sessions (
     session_id text PRIMARY KEY,
     runs integer NOT NULL,
     first_run_at bigint NOT NULL,
     last_run_at bigint NOT NULL
   );
   INSERT INTO agentloom_sessions (session_id, runs, first_run_at, last_run_at)
     SELECT session_id, COUNT(*), MIN(created_at), MAX(created_at) FROM agentloom_runs GROUP BY session_id;
   CREATE INDEX agentloom_sessions_recent ON agentloom_sessions (last_run_at, session_id);
   CREATE FUNCTION agentloom_count_session() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $body$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       INSERT INTO agentloom_sessions AS session (session_id, runs, first_run_at, last_run_at)
         VALUES (NEW.session_id, 1, NEW.created_at, NEW.created_at)
         ON CONFLICT (session_id) DO UPDATE SET runs = session.runs + 1,
           first_run_at = LEAST(session.first_run_at, excluded.first_run_at),
           last_run_at = GREATEST(session.last_run_at, excluded.last_run_at);
     ELSIF NEW.status = 'deleted' AND OLD.status <> 'deleted' THEN
       DELETE FROM agentloom_sessions WHERE session_id = NEW.session_id;
       INSERT INTO agentloom_sessions (session_id, runs, first_run_at, last_run_at)
         SELECT session_id, COUNT(*), MIN(created_at), MAX(created_at) FROM agentloom_runs
         WHERE session_id = NEW.session_id AND status <> 'deleted' GROUP BY session_id;
     END IF;
     RETURN NULL;
   END
   $body$;
   CREATE TRIGGER agentloom_runs_count_session AFTER INSERT OR UPDATE OF status ON agentloom_runs
     FOR EACH ROW EXECUTE FUNCTION agentloom_count_session();`,
  // 3: each finished run's digest on its row (its inputs and unconsumed supplements, written with
  // its terminal append), and the index that finds a session's most recent finished runs from its
  // end, so that a new run reads its session in one query without the earlier journals (issue 18).
  `ALTER TABLE agentloom_runs ADD COLUMN digest text;
   CREATE INDEX agentloom_runs_session_finished ON agentloom_runs (session_id, created_at, created_order)
     WHERE status NOT IN ('pending', 'running', 'deleted');`,
  // 4: session checkpoints (ADR 0012). A finished run whose digest holds a checkpoint names the
  // earlier run it covers the session through, with that run's creation time, and the partial
  // index finds a session's newest checkpoint from its end, so that a new run reads only the runs
  // after it.
  `ALTER TABLE agentloom_runs ADD COLUMN checkpoint_through text;
   ALTER TABLE agentloom_runs ADD COLUMN checkpoint_at bigint;
   CREATE INDEX agentloom_runs_session_checkpoint ON agentloom_runs (session_id, checkpoint_at, created_order)
     WHERE checkpoint_at IS NOT NULL;`,
];
