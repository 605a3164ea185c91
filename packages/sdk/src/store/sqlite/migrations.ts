/**
 * Schema migrations of `SqliteRunStore`. The position in the list is the version number: a
 * migration, once released, is never edited, only followed by a new one.
 */
export const sqliteMigrations: readonly string[] = [
  `CREATE TABLE agentloom_runs (
     run_id TEXT PRIMARY KEY,
     session_id TEXT NOT NULL,
     status TEXT NOT NULL,
     owner_id TEXT,
     epoch INTEGER NOT NULL,
     lease_expires_at INTEGER NOT NULL,
     deadline_at INTEGER NOT NULL,
     loops_used INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     result TEXT
   ) STRICT;
   CREATE INDEX agentloom_runs_session ON agentloom_runs (session_id, created_at);
   CREATE TABLE agentloom_journal (
     run_id TEXT NOT NULL,
     sequence INTEGER NOT NULL,
     epoch INTEGER NOT NULL,
     type TEXT NOT NULL,
     task_id TEXT,
     data TEXT NOT NULL,
     at INTEGER NOT NULL,
     PRIMARY KEY (run_id, sequence)
   ) STRICT, WITHOUT ROWID;`,
  // Version 2: the last sequence of each run is stored on its row, kept in step by every write,
  // so that reading a run or a session's runs costs no scan of the journal (issue 18).
  `ALTER TABLE agentloom_runs ADD COLUMN last_sequence INTEGER NOT NULL DEFAULT 0;
   UPDATE agentloom_runs SET last_sequence =
     (SELECT COALESCE(MAX(sequence), 0) FROM agentloom_journal WHERE agentloom_journal.run_id = agentloom_runs.run_id);`,
];
