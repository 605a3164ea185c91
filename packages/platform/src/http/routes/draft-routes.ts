import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { checkDraft, readDraft, saveDraft } from '../../application/drafts/draft-service.js';
import { restoreDraft } from '../../application/drafts/restore-draft.js';
import { agentDraftSchema, workflowDraftSchema } from '../../domain/index.js';
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
/** The `ETag` of a draft answer: its revision, quoted, to send back as `If-Match`. */
const revisionHeader = {
  ETag: { description: 'The draft revision, quoted (e.g. `"3"`): send it back as `If-Match`.', schema: { type: 'string' } },
} as const;

/** A draft answer's response: the draft, with its revision as the `ETag`. */
function draftResponse(description: string) {
  return { ...jsonResponse(description, z.object({ draft: draftSchema })), headers: revisionHeader };
}

/** Answers a draft (200) with its revision as the `ETag`, as every draft operation does. */
function answerDraft(c: Context, draft: { revision: number }) {
  c.header('ETag', `"${draft.revision}"`);
  return c.json({ draft: draft as z.infer<typeof draftSchema> }, 200);
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
      operationId: 'getDraft',
      tags: ['Drafts'],
      summary: 'Read the draft',
      description: 'Read the draft; the `ETag` header is its revision.',
      request: { params: appParameters },
      responses: { 200: draftResponse('The draft.') },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.read');
      const draft = await readDraft(c.get('services'), row);
      return answerDraft(c, draft);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/apps/{appId}/draft',
      operationId: 'saveDraft',
      tags: ['Drafts'],
      summary: 'Save the draft',
      errors: { 400: ['invalid-if-match'], 412: ['stale-revision'], 428: ['if-match-required'] },
      description:
        'Save the draft. `If-Match` must carry the revision read (428 without it, 412 `stale-revision` when someone saved in between).',
      request: {
        params: appParameters,
        headers: z.object({
          // Optional to the schema so that its absence is the typed 428 `if-match-required`, not a 400.
          'if-match': z
            .string()
            .optional()
            .openapi({
              example: '"3"',
              param: { required: true, description: 'The revision read (the `ETag` of the draft): 428 without it.' },
            }),
        }),
        body: jsonBody(
          z
            .strictObject({
              // Typed for clients; the service parses it strictly for the app's kind (a 400 listing the issues).
              config: z.record(z.string(), z.unknown()).openapi({
                anyOf: [
                  { $ref: '#/components/schemas/AgentDraft' },
                  { $ref: '#/components/schemas/WorkflowDraft' },
                  { $ref: '#/components/schemas/RouterDraft' },
                ],
                description:
                  "An AgentDraft (see the AgentDraft schema) for agent apps; a WorkflowDraft (the SDK workflow definition, its bindings and the canvas layout, see the WorkflowDraft schema) for workflow apps; a RouterDraft (an intent catalog over the space's apps) for router apps. A workflow or router draft may be half-built: `validate` lists its issues.",
              }),
            })
            .openapi('SaveDraft'),
        ),
      },
      responses: { 200: draftResponse('Saved.') },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.manage');
      const draft = await saveDraft(
        c.get('services'),
        row,
        currentActor(c),
        c.req.valid('header')['if-match'],
        c.req.valid('json').config,
      );
      return answerDraft(c, draft);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/apps/{appId}/draft/validate',
      operationId: 'validateDraft',
      tags: ['Drafts'],
      summary: 'Check the draft for publish',
      description:
        'Every problem that would stop a publish, without publishing. For a workflow: the SDK format and graph issues (paths under `definition.`), unbound names, and bindings that name no published agent app or usable tool of this space.',
      request: { params: appParameters },
      responses: {
        200: jsonResponse('The issues (empty when publishable).', z.object({ valid: z.boolean(), issues: z.array(issueSchema) })),
      },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.read');
      const issues = await checkDraft(c.get('services'), row);
      return c.json({ valid: issues.length === 0, issues }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/apps/{appId}/draft/restore',
      operationId: 'restoreDraft',
      tags: ['Drafts'],
      summary: 'Restore the draft from a release',
      errors: {
        400: ['invalid-if-match'],
        404: ['release-not-found'],
        409: ['app-deleting'],
        412: ['stale-revision'],
        422: ['release-without-draft', 'release-draft-outdated'],
      },
      description:
        'Copy the draft a release was published from back into the draft, as a new revision (the release itself is unchanged). `If-Match` is optional: with it, a draft changed since it was read is not overwritten (412). Releases published before releases kept their draft answer 422 `release-without-draft`.',
      request: {
        params: appParameters,
        headers: z.object({
          'if-match': z
            .string()
            .optional()
            .openapi({ example: '"3"', description: 'The revision read, to refuse a lost update.' }),
        }),
        body: jsonBody(z.strictObject({ fromVersion: z.number().int().min(1) }).openapi('RestoreDraft')),
      },
      responses: { 200: draftResponse('Restored.') },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.manage');
      const draft = await restoreDraft(
        c.get('services'),
        row,
        currentActor(c),
        c.req.valid('json').fromVersion,
        c.req.valid('header')['if-match'],
      );
      return answerDraft(c, draft);
    },
  );

  return app;
}
