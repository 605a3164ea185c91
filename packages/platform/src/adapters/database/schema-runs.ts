/*
 * The platform tables of the run side (PLATFORM.md §4.3): sessions, the run index and its jobs,
 * idempotency and message keys, workers, sign-in limits, app deletions and webhook deliveries.
 * `schema.ts` gathers them with the configuration tables into `PlatformDatabase`.
 */
import type { Selectable } from 'kysely';

/** A conversation of an app; the SDK keeps its runs, this row says whose it is (P-9). */
export interface SessionsTable {
  id: string;
  space_id: string;
  app_id: string;
  /** `debug`: a console editor's run of the draft; never listed with the app's sessions. */
  kind: 'agent' | 'debug';
  created_by: string;
  created_at: string;
  last_run_at: string;
  /** A title people gave it (`PATCH /sessions/{sessionId}`); null until then. */
  title: string | null;
  /** The integration's own id of its end user, given when the session was made. */
  external_user_id: string | null;
}

/**
 * The platform's index of a run (id = the SDK run id): which app, session and release it belongs
 * to. Its status is never kept here: every read asks the SDK (P-11.9), so nothing goes stale.
 */
export interface RunsTable {
  id: string;
  space_id: string;
  app_id: string;
  session_id: string;
  /** The release the run started on; null while queued (D-P5), then the same on every dispatch (P-6.5). */
  release_id: string | null;
  /** Why the platform asked it to stop: `user`, `release-published`, `app-deleted`. */
  stop_cause: string | null;
  requested_by: string;
  created_at: string;
}

/** A retried `POST /apps/:appId/runs` with the same key answers the run of the first one. */
export interface IdempotencyKeysTable {
  principal: string;
  app_id: string;
  key: string;
  request_hash: string;
  run_id: string;
  session_id: string;
  created_at: string;
}

/** The dispatcher's lease table: one job per run, claimed by one worker at a time. */
export interface RunJobsTable {
  run_id: string;
  state: 'queued' | 'claimed' | 'done';
  attempt: number;
  worker_id: string | null;
  claimed_at: string | null;
  lease_until: string | null;
  not_before: string;
  created_at: string;
  /** 1 when the run needs a worker that can isolate commands (bubblewrap, NOT-18), else 0. */
  needs_isolation: number;
}

/** One counter of the sign-in limits (P-15.3): an account, a client address, or a known account at an address. */
export interface SignInLimitsTable {
  key: string;
  failures: number;
  window_started_at: string;
  last_failure_at: string | null;
  updated_at: string;
}

/** A worker process (§4.3 `workers`): what it can do and whether it is alive, draining or gone. */
export interface WorkersTable {
  id: string;
  host: string;
  /** The platform package version the worker runs. */
  version: string;
  /** JSON of `WorkerCapabilities`. */
  capabilities: string;
  max_concurrent_runs: number;
  started_at: string;
  heartbeat_at: string;
  state: 'active' | 'draining' | 'gone';
}

/** A retried `POST /sessions/:id/messages` with the same key answers what the first one did. */
export interface MessageKeysTable {
  principal: string;
  session_id: string;
  key: string;
  request_hash: string;
  kind: 'supplement' | 'run';
  run_id: string;
  supplement_id: string | null;
  created_at: string;
}

/** The steps of an app deletion (P-13.1), in order; `done` is the last. */
export type AppDeletionStep = 'stopping-runs' | 'deleting-runs' | 'deleting-files' | 'removing-app' | 'done';

/**
 * The durable deletion job of an app (P-13): its step, its progress, and the lease of the process
 * working on it, so that another process continues it when that one dies. Outlives the app row.
 */
export interface AppDeletionsTable {
  id: string;
  app_id: string;
  space_id: string;
  app_name: string;
  step: AppDeletionStep;
  runs_total: number;
  runs_deleted: number;
  attempts: number;
  last_error: string | null;
  worker_id: string | null;
  lease_until: string | null;
  requested_by: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** An app's webhook signing secret, sealed with the platform key (shown once when made). */
export interface AppWebhookSecretsTable {
  app_id: string;
  secret_sealed: string;
  created_by: string;
  created_at: string;
}

/**
 * The completion webhook a run owes (one per run that asked for one): `waiting` until the run
 * ends, then tried until a 2xx (`delivered`) or the attempts run out (`failed`). `attempt_log`
 * is a JSON array of the attempts (time, HTTP status or error) shown by `GET /runs/:id/webhook`.
 */
export interface WebhookDeliveriesTable {
  id: string;
  run_id: string;
  app_id: string;
  url: string;
  state: 'waiting' | 'delivered' | 'failed';
  attempts: number;
  attempt_log: string;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  created_at: string;
  finished_at: string | null;
}

/** An app published over A2A (issue 32): absent or `enabled` 0 = off (the default). */
export interface AppA2aTable {
  app_id: string;
  enabled: number;
  updated_by: string;
  updated_at: string;
}

/**
 * Where an A2A task's events are pushed (issue 32): `delivered_sequence` is the journal sequence
 * delivered last (-1: not even the task yet); `state` `active` until the task ended and all of it
 * was delivered (`done`) or the receiver kept failing (`failed`).
 */
export interface A2aPushConfigsTable {
  id: string;
  task_id: string;
  config_id: string;
  app_id: string;
  url: string;
  token: string | null;
  auth_scheme: string | null;
  auth_credentials_sealed: string | null;
  delivered_sequence: number;
  state: 'active' | 'done' | 'failed';
  attempts: number;
  last_error: string | null;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  created_by: string;
  created_at: string;
}

/** An MCP server resource's OAuth sign-in (issue 32): the SDK's record, sealed; see migration 0012. */
export interface McpSignInsTable {
  resource_id: string;
  space_id: string;
  record_sealed: string | null;
  pending_state: string | null;
  redirect_url: string;
  updated_by: string;
  updated_at: string;
}

/** The run-side tables by name, as `PlatformDatabase` (schema.ts) holds them. */
export interface RunSideTables {
  sessions: SessionsTable;
  runs: RunsTable;
  idempotency_keys: IdempotencyKeysTable;
  run_jobs: RunJobsTable;
  message_keys: MessageKeysTable;
  app_deletions: AppDeletionsTable;
  app_webhook_secrets: AppWebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  workers: WorkersTable;
  sign_in_limits: SignInLimitsTable;
  app_a2a: AppA2aTable;
  a2a_push_configs: A2aPushConfigsTable;
  mcp_sign_ins: McpSignInsTable;
}

export type RunRow = Selectable<RunsTable>;
export type RunJobRow = Selectable<RunJobsTable>;
export type WorkerRow = Selectable<WorkersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type AppDeletionRow = Selectable<AppDeletionsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type A2aPushConfigRow = Selectable<A2aPushConfigsTable>;
