import { z } from '@hono/zod-openapi';
import { newId } from '../../adapters/crypto/index.js';
import {
  readDraftLookups,
  replaceDraftReferences,
  replaceWorkflowDraftReferences,
} from '../../application/releases/draft-lookups.js';
import { checkWorkflowDraft } from '../../application/releases/publish-workflow-release.js';
import {
  type AgentDraft,
  agentDraftSchema,
  validateAgentDraft,
  type WorkflowDraft,
  workflowDraftSchema,
} from '../../domain/index.js';
import { ApiError } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeApp } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';

const draftSchema = z
  .object({
    appId: z.string(),
    revision: z.number(),
    schemaVersion: z.number(),
    config: z.record(z.string(), z.unknown()),
    updatedAt: z.string(),
  })
  .openapi('Draft');
const issueSchema = z.object({ path: z.string(), code: z.string(), message: z.string() }).openapi('DraftIssue');
const appParameters = z.object({ appId: idParameter('appId') });

/** Parses a draft config for its app kind, strictly (unknown fields refused): `AgentDraft` or `WorkflowDraft`. */
function parseDraft(kind: 'agent', config: unknown): AgentDraft;
function parseDraft(kind: 'workflow', config: unknown): WorkflowDraft;
function parseDraft(kind: 'agent' | 'workflow', config: unknown): AgentDraft | WorkflowDraft;
function parseDraft(kind: 'agent' | 'workflow', config: unknown): AgentDraft | WorkflowDraft {
  const result = kind === 'agent' ? agentDraftSchema.safeParse(config) : workflowDraftSchema.safeParse(config);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: ['config', ...issue.path.map(String)].join('.'),
      code: issue.code,
      message: issue.message,
    }));
    const schema = kind === 'agent' ? 'AgentDraft' : 'WorkflowDraft';
    throw new ApiError(400, 'invalid-request', `The draft does not match the ${schema} schema.`, { issues });
  }
  return result.data;
}

/** `/apps/:appId/draft`: one draft per app, saved with optimistic concurrency (`If-Match: <revision>`). */
export function draftRoutes() {
  const app = createSubApp();
  app.openAPIRegistry.register('AgentDraft', agentDraftSchema);
  app.openAPIRegistry.register('WorkflowDraft', workflowDraftSchema);

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}/draft',
      summary: 'Read the draft; the `ETag` header is its revision.',
      request: { params: appParameters },
      responses: { 200: jsonResponse('The draft.', z.object({ draft: draftSchema })) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.read');
      const draft = await c
        .get('services')
        .database.selectFrom('app_drafts')
        .selectAll()
        .where('app_id', '=', row.id)
        .executeTakeFirstOrThrow();
      c.header('ETag', `"${draft.revision}"`);
      return c.json(
        {
          draft: {
            appId: row.id,
            revision: draft.revision,
            schemaVersion: draft.schema_version,
            config: JSON.parse(draft.config),
            updatedAt: draft.updated_at,
          },
        },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/apps/{appId}/draft',
      summary:
        'Save the draft. `If-Match` must carry the revision read (428 without it, 412 `stale-revision` when someone saved in between).',
      request: {
        params: appParameters,
        headers: z.object({ 'if-match': z.string().optional().openapi({ example: '"3"' }) }),
        body: jsonBody(
          z
            .strictObject({
              config: z.record(z.string(), z.unknown()).openapi({
                description:
                  'An AgentDraft (see the AgentDraft schema) for agent apps; a WorkflowDraft (the SDK workflow definition, its bindings and the canvas layout, see the WorkflowDraft schema) for workflow apps. A workflow draft may be half-built: `validate` lists its issues.',
              }),
            })
            .openapi('SaveDraft'),
        ),
      },
      responses: {
        200: jsonResponse('Saved.', z.object({ draft: draftSchema })),
        412: jsonResponse('Stale revision.', z.object({ error: z.unknown() })),
        428: jsonResponse('If-Match missing.', z.object({ error: z.unknown() })),
      },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.manage');
      if (row.state !== 'active') throw new ApiError(409, 'app-deleting', 'The app is being deleted.');
      const ifMatch = c.req.valid('header')['if-match'];
      if (ifMatch === undefined) throw new ApiError(428, 'if-match-required', 'Send If-Match with the draft revision you read.');
      const expected = Number(ifMatch.replaceAll('"', '').replace(/^W\//, ''));
      if (!Number.isInteger(expected))
        throw new ApiError(400, 'invalid-if-match', 'If-Match must be the draft revision, e.g. "3".');
      const config = parseDraft(row.kind, c.req.valid('json').config);
      const { database, now } = c.get('services');
      const actor = currentActor(c);
      const at = now().toISOString();
      const saved = await database.transaction().execute(async (transaction) => {
        const result = await transaction
          .updateTable('app_drafts')
          .set({ config: JSON.stringify(config), revision: expected + 1, updated_by: actor, updated_at: at })
          .where('app_id', '=', row.id)
          .where('revision', '=', expected)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) {
          const current = await transaction
            .selectFrom('app_drafts')
            .select('revision')
            .where('app_id', '=', row.id)
            .executeTakeFirstOrThrow();
          throw new ApiError(412, 'stale-revision', 'The draft changed since you read it; reload and apply your change again.', {
            currentRevision: current.revision,
          });
        }
        if (row.kind === 'agent')
          await replaceDraftReferences(transaction, row.id, row.space_id, config as AgentDraft, () => newId('ref'));
        else await replaceWorkflowDraftReferences(transaction, row.id, row.space_id, config as WorkflowDraft, () => newId('ref'));
        return transaction.selectFrom('app_drafts').selectAll().where('app_id', '=', row.id).executeTakeFirstOrThrow();
      });
      c.header('ETag', `"${saved.revision}"`);
      return c.json(
        {
          draft: {
            appId: row.id,
            revision: saved.revision,
            schemaVersion: saved.schema_version,
            config: JSON.parse(saved.config),
            updatedAt: saved.updated_at,
          },
        },
        200,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/apps/{appId}/draft/validate',
      summary:
        'Every problem that would stop a publish, without publishing. For a workflow: the SDK format and graph issues (paths under `definition.`), unbound names, and bindings that name no published agent app or usable tool of this space.',
      request: { params: appParameters },
      responses: {
        200: jsonResponse('The issues (empty when publishable).', z.object({ valid: z.boolean(), issues: z.array(issueSchema) })),
      },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.read');
      const { database } = c.get('services');
      const draftRow = await database.selectFrom('app_drafts').selectAll().where('app_id', '=', row.id).executeTakeFirstOrThrow();
      if (row.kind === 'workflow') {
        const draft = parseDraft('workflow', JSON.parse(draftRow.config));
        const { issues } = await checkWorkflowDraft(c.get('services'), database, row, draft);
        return c.json({ valid: issues.length === 0, issues }, 200);
      }
      const draft = parseDraft('agent', JSON.parse(draftRow.config));
      const issues = validateAgentDraft(draft, row.mode ?? 'react', await readDraftLookups(database, row.space_id, draft));
      return c.json({ valid: issues.length === 0, issues }, 200);
    },
  );

  return app;
}
