import { newId } from '../../adapters/crypto/index.js';
import type { A2aPushConfigRow, AppRow } from '../../adapters/database/schema.js';
import { A2AProtocolError, a2aErrorCodes, invalidParams } from '../../domain/a2a-errors.js';
import type { PlatformContext } from '../context.js';
import { type A2aCaller, runOfTask } from './a2a-tasks.js';

/**
 * Push-notification configs of A2A tasks (A2A 1.0 §9.5, issue 32): where to POST a task's
 * events. A config is checked against the egress policy when it is created (a refused URL is
 * never stored) and again at every send, which goes through the outbound module; its credentials
 * are sealed with the platform key and never shown again. The deliverer (`worker/`) sends the
 * events from the run journal after the config's cursor, so a config added late still gets the
 * task from its start.
 */

/** A config as A2A shows it (`TaskPushNotificationConfig`), without its credentials. */
export interface A2aPushConfigView {
  id: string;
  taskId: string;
  url: string;
  token?: string;
  authentication?: { scheme: string };
}

/** What a client asks for (`TaskPushNotificationConfig`). */
export interface A2aPushConfigRequest {
  id?: string;
  taskId?: string;
  url?: string;
  token?: string;
  authentication?: { scheme?: string; credentials?: string };
}

type PushContext = Pick<PlatformContext, 'database' | 'outbound' | 'secretBox' | 'now'>;

function viewOf(row: A2aPushConfigRow): A2aPushConfigView {
  return {
    id: row.config_id,
    taskId: row.task_id,
    url: row.url,
    ...(row.token ? { token: row.token } : {}),
    ...(row.auth_scheme ? { authentication: { scheme: row.auth_scheme } } : {}),
  };
}

function configNotFound(taskId: string, configId: string): A2AProtocolError {
  return new A2AProtocolError(a2aErrorCodes.taskNotFound, `Task ${taskId} has no push config ${configId}.`, {
    taskId,
    configId,
  });
}

/**
 * Creates (or replaces: same task and id) a task's push config. The URL must be http(s) and pass
 * the egress policy's early check, else -32602 with `data.code` `egress-denied`.
 */
export async function createA2aPushConfig(
  context: PushContext,
  app: AppRow,
  caller: A2aCaller,
  request: A2aPushConfigRequest,
  taskIdOverride?: string,
): Promise<A2aPushConfigView> {
  const taskId = taskIdOverride ?? request.taskId ?? '';
  if (!taskId) throw invalidParams('params.taskId is required.');
  const run = await runOfTask(context, app, caller, taskId);
  if (typeof request.url !== 'string' || request.url === '') throw invalidParams('params.url is required.');
  const refusal = context.outbound.policy.checkUrl(request.url);
  if (refusal) throw invalidParams(`url: ${refusal.message}`, { code: 'egress-denied', rule: refusal.rule });
  const configId = request.id || newId('push');
  const credentials = request.authentication?.credentials;
  const at = context.now().toISOString();
  const values = {
    url: request.url,
    token: request.token || null,
    auth_scheme: request.authentication?.scheme || null,
    auth_credentials_sealed: credentials ? context.secretBox.seal(credentials) : null,
    delivered_sequence: -1,
    state: 'active' as const,
    attempts: 0,
    last_error: null,
    next_attempt_at: at,
  };
  await context.database
    .insertInto('a2a_push_configs')
    .values({
      id: newId('a2apush'),
      task_id: run.id,
      config_id: configId,
      app_id: app.id,
      ...values,
      created_by: caller.actor,
      created_at: at,
    })
    .onConflict((conflict) => conflict.columns(['task_id', 'config_id']).doUpdateSet(values))
    .execute();
  return {
    id: configId,
    taskId: run.id,
    url: request.url,
    ...(request.token ? { token: request.token } : {}),
    ...(values.auth_scheme ? { authentication: { scheme: values.auth_scheme } } : {}),
  };
}

/** One config of a task, or -32001. */
export async function readA2aPushConfig(
  context: PushContext,
  app: AppRow,
  caller: A2aCaller,
  taskId: string,
  configId: string,
): Promise<A2aPushConfigView> {
  const run = await runOfTask(context, app, caller, taskId);
  const row = await context.database
    .selectFrom('a2a_push_configs')
    .selectAll()
    .where('task_id', '=', run.id)
    .where('config_id', '=', configId)
    .executeTakeFirst();
  if (!row) throw configNotFound(run.id, configId);
  return viewOf(row);
}

/** Every config of a task (`ListTaskPushNotificationConfigs`: one page). */
export async function listA2aPushConfigs(context: PushContext, app: AppRow, caller: A2aCaller, taskId: string) {
  const run = await runOfTask(context, app, caller, taskId);
  const rows = await context.database
    .selectFrom('a2a_push_configs')
    .selectAll()
    .where('task_id', '=', run.id)
    .orderBy('created_at')
    .execute();
  return { configs: rows.map(viewOf), nextPageToken: '' };
}

/** Deletes a config: no more pushes to it (a send in flight may still arrive). */
export async function deleteA2aPushConfig(
  context: PushContext,
  app: AppRow,
  caller: A2aCaller,
  taskId: string,
  configId: string,
) {
  const run = await runOfTask(context, app, caller, taskId);
  const deleted = await context.database
    .deleteFrom('a2a_push_configs')
    .where('task_id', '=', run.id)
    .where('config_id', '=', configId)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw configNotFound(run.id, configId);
}
