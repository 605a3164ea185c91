import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { newId } from '../../adapters/crypto/index.js';
import { insertAppWithDraft, listApps, updateApp } from '../../adapters/database/repositories/app-repository.js';
import type { AppRow } from '../../adapters/database/schema.js';
import { ValidationError } from '../../domain/errors.js';
import { agentDraftSchemaVersion, emptyAgentDraft, emptyWorkflowDraft } from '../../domain/index.js';
import { emptyRouterDraft } from '../../domain/router-draft.js';
import type { PlatformContext } from '../context.js';
import { agentNameOf } from '../releases/resolve-snapshot.js';

/** A new app: an agent with its mode (fixed for good), a workflow, or a router (issue 33). */
export interface NewApp {
  kind: 'agent' | 'workflow' | 'router';
  name: string;
  description: string;
  mode?: 'react' | 'plan-executor' | undefined;
}

/** The space's apps (of one kind when given). */
export function spaceApps(context: Pick<PlatformContext, 'database'>, spaceId: string, kind?: AppRow['kind']) {
  return listApps(context.database, spaceId, kind);
}

/**
 * Creates an app with an empty draft and its file root (P-12.2): an agent needs a mode, a
 * workflow takes none (NOT-9). The directories are made inside the transaction, so that a
 * failure leaves no row.
 */
export async function createApp(
  context: Pick<PlatformContext, 'database' | 'config' | 'now'>,
  spaceId: string,
  actor: string,
  input: NewApp,
): Promise<AppRow> {
  if (input.kind === 'agent' && !input.mode)
    throw new ValidationError('mode-required', 'An agent app needs a mode: react or plan-executor.');
  if (input.kind === 'workflow' && input.mode)
    throw new ValidationError('mode-not-allowed', 'A workflow is not an agent mode (NOT-9); send no mode.');
  if (input.kind === 'router' && input.mode)
    throw new ValidationError('mode-not-allowed', 'A router is not an agent; send no mode.');
  const id = newId('app');
  const at = context.now().toISOString();
  const folder = { agent: 'agents', workflow: 'workflows', router: 'routers' }[input.kind];
  const row: AppRow = {
    id,
    space_id: spaceId,
    kind: input.kind,
    name: input.name,
    description: input.description,
    mode: input.kind === 'agent' ? (input.mode ?? null) : null,
    file_root: path.join(context.config.dataDirectory, 'spaces', spaceId, folder, id),
    state: 'active',
    latest_release_id: null,
    created_by: actor,
    created_at: at,
    updated_at: at,
  };
  const draft =
    input.kind === 'agent'
      ? emptyAgentDraft()
      : input.kind === 'router'
        ? emptyRouterDraft()
        : emptyWorkflowDraft(agentNameOf({ id, name: input.name }));
  await context.database.transaction().execute(async (transaction) => {
    await insertAppWithDraft(transaction, row, { config: JSON.stringify(draft), schemaVersion: agentDraftSchemaVersion });
    await mkdir(path.join(row.file_root, 'wiki'), { recursive: true });
    await mkdir(path.join(row.file_root, 'files'), { recursive: true });
  });
  return row;
}

/** Renames or describes an app; its kind and mode never change (P-3.5). */
export async function changeApp(
  context: Pick<PlatformContext, 'database' | 'now'>,
  row: AppRow,
  body: { name?: string | undefined; description?: string | undefined; mode?: string | undefined; kind?: string | undefined },
): Promise<AppRow> {
  if (body.mode !== undefined && body.mode !== row.mode)
    throw new ValidationError('mode-immutable', 'An agent’s execution mode cannot change after creation (P-3.5).');
  if (body.kind !== undefined && body.kind !== row.kind)
    throw new ValidationError('kind-immutable', 'An app’s kind cannot change.');
  const changes = {
    updated_at: context.now().toISOString(),
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
  };
  await updateApp(context.database, row.id, changes);
  return { ...row, ...changes };
}
