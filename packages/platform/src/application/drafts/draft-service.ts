import { newId } from '../../adapters/crypto/index.js';
import { readDraftRow, saveDraftAtRevision } from '../../adapters/database/repositories/draft-repository.js';
import type { AppRow } from '../../adapters/database/schema.js';
import {
  appDeletingError,
  InvalidRequestError,
  PreconditionFailedError,
  PreconditionRequiredError,
} from '../../domain/errors.js';
import {
  type AgentDraft,
  agentDraftSchema,
  type DraftIssue,
  validateAgentDraft,
  type WorkflowDraft,
  workflowDraftSchema,
} from '../../domain/index.js';
import { routerDraftSchema } from '../../domain/router-draft.js';
import type { PlatformContext } from '../context.js';
import { readDraftLookups, replaceDraftReferences } from '../releases/draft-lookups.js';
import { checkWorkflowDraft } from '../releases/publish-workflow-release.js';
import { checkRouter } from '../routers/router-release.js';

/** A draft as the API shows it; its revision is also the `ETag`. */
export interface DraftView {
  appId: string;
  revision: number;
  schemaVersion: number;
  config: unknown;
  updatedAt: string;
}

/** Parses a draft config for its app kind, strictly (unknown fields refused): `AgentDraft` or `WorkflowDraft`. */
export function parseDraft(kind: 'agent', config: unknown): AgentDraft;
export function parseDraft(kind: 'workflow', config: unknown): WorkflowDraft;
export function parseDraft(kind: 'agent' | 'workflow', config: unknown): AgentDraft | WorkflowDraft;
export function parseDraft(kind: 'agent' | 'workflow', config: unknown): AgentDraft | WorkflowDraft {
  const result = kind === 'agent' ? agentDraftSchema.safeParse(config) : workflowDraftSchema.safeParse(config);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: ['config', ...issue.path.map(String)].join('.'),
      code: issue.code,
      message: issue.message,
    }));
    const schema = kind === 'agent' ? 'AgentDraft' : 'WorkflowDraft';
    throw new InvalidRequestError('invalid-request', `The draft does not match the ${schema} schema.`, { issues });
  }
  return result.data;
}

/** Parses a router draft's envelope (format version 1, a list of actions); the catalog itself is checked by `validate` and publish. */
function parseRouterDraft(config: unknown): Record<string, unknown> {
  const result = routerDraftSchema.safeParse(config);
  if (!result.success)
    throw new InvalidRequestError('invalid-request', 'The draft does not match the RouterDraft schema.', {
      issues: result.error.issues.map((issue) => ({
        path: ['config', ...issue.path.map(String)].join('.'),
        code: issue.code,
        message: issue.message,
      })),
    });
  return result.data;
}

function viewOf(appId: string, row: Awaited<ReturnType<typeof readDraftRow>>): DraftView {
  return {
    appId,
    revision: row.revision,
    schemaVersion: row.schema_version,
    config: JSON.parse(row.config),
    updatedAt: row.updated_at,
  };
}

/** The app's draft. */
export async function readDraft(context: Pick<PlatformContext, 'database'>, app: AppRow): Promise<DraftView> {
  return viewOf(app.id, await readDraftRow(context.database, app.id));
}

/**
 * Saves the draft with optimistic concurrency: `ifMatch` must carry the revision read (a required precondition
 * without it, a failed precondition `stale-revision` when someone saved in between). The draft's references to
 * resources are replaced in the same transaction.
 */
export async function saveDraft(
  context: Pick<PlatformContext, 'database' | 'now'>,
  app: AppRow,
  actor: string,
  ifMatch: string | undefined,
  body: unknown,
): Promise<DraftView> {
  if (app.state !== 'active') throw appDeletingError();
  if (ifMatch === undefined)
    throw new PreconditionRequiredError('if-match-required', 'Send If-Match with the draft revision you read.');
  const expected = Number(ifMatch.replaceAll('"', '').replace(/^W\//, ''));
  if (!Number.isInteger(expected))
    throw new InvalidRequestError('invalid-if-match', 'If-Match must be the draft revision, e.g. "3".');
  const config = app.kind === 'router' ? parseRouterDraft(body) : parseDraft(app.kind, body);
  const at = context.now().toISOString();
  const saved = await context.database.transaction().execute(async (transaction) => {
    const stored = await saveDraftAtRevision(transaction, app.id, expected, {
      config: JSON.stringify(config),
      updatedBy: actor,
      updatedAt: at,
    });
    if (!stored) {
      const current = await readDraftRow(transaction, app.id);
      throw new PreconditionFailedError(
        'stale-revision',
        'The draft changed since you read it; reload and apply your change again.',
        { currentRevision: current.revision },
      );
    }
    await replaceDraftReferences(transaction, app, config, () => newId('ref'));
    return readDraftRow(transaction, app.id);
  });
  return viewOf(app.id, saved);
}

/** Every problem that would stop a publish of the saved draft, without publishing. */
export async function checkDraft(context: PlatformContext, app: AppRow): Promise<DraftIssue[]> {
  const { database } = context;
  const draftRow = await readDraftRow(database, app.id);
  if (app.kind === 'router') return (await checkRouter(database, app, JSON.parse(draftRow.config))).issues;
  if (app.kind === 'workflow') {
    const draft = parseDraft('workflow', JSON.parse(draftRow.config));
    return (await checkWorkflowDraft(context, database, app, draft)).issues;
  }
  const draft = parseDraft('agent', JSON.parse(draftRow.config));
  return validateAgentDraft(draft, app.mode ?? 'react', await readDraftLookups(database, app.space_id, draft));
}
