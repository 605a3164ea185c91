import { z } from '@hono/zod-openapi';
import type { AppReleaseRow } from '../../adapters/database/index.js';
import { findRelease, listReleases } from '../../adapters/database/repositories/release-repository.js';
import { publishAgentRelease } from '../../application/releases/publish-release.js';
import { publishWorkflowRelease } from '../../application/releases/publish-workflow-release.js';
import { publishRouterRelease } from '../../application/routers/router-release.js';
import { stopRunsOfOlderReleases } from '../../application/runs/stop-runs.js';
import { ApiError, notFound } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeApp } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';

const releaseSummarySchema = z
  .object({
    id: z.string(),
    appId: z.string(),
    version: z.number(),
    contentHash: z.string(),
    notes: z.string(),
    interruptsRunsInProgress: z.boolean(),
    publishedBy: z.string(),
    publishedAt: z.string(),
  })
  .openapi('ReleaseSummary');
const releaseSchema = releaseSummarySchema.extend({ snapshot: z.record(z.string(), z.unknown()) }).openapi('Release');
const appParameters = z.object({ appId: idParameter('appId') });

function summary(row: AppReleaseRow): z.infer<typeof releaseSummarySchema> {
  return {
    id: row.id,
    appId: row.app_id,
    version: row.version,
    contentHash: row.content_hash,
    notes: row.notes,
    interruptsRunsInProgress: row.interrupt_runs === 1,
    publishedBy: row.published_by,
    publishedAt: row.published_at,
  };
}

/** `/apps/:appId/releases`: publish the draft into an immutable release; list and read releases (P-6). */
export function releaseRoutes() {
  const app = createSubApp();

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/apps/{appId}/releases',
      operationId: 'publishRelease',
      tags: ['Releases'],
      summary: 'Publish a release',
      errors: {
        409: ['app-deleting', 'publish-conflict', 'debug-conflict'],
        422: ['draft-invalid', 'not-yet-supported', 'release-build-failed'],
      },
      description:
        'Publish: validate the draft, build it into an SDK agent or workflow as a dry run, save an immutable release. A workflow release pins the agent releases it calls; a workflow publish stops no run (D-P2). 422 `draft-invalid` lists every issue (e.g. an unpublished agent app).',
      request: {
        params: appParameters,
        body: jsonBody(z.strictObject({ notes: z.string().max(5000).default('') }).openapi('Publish')),
      },
      responses: {
        201: jsonResponse(
          'Published; `stoppedRuns` are the runs in progress it interrupted (cause `release-published`, P-6.3; always empty for a workflow).',
          z.object({ release: releaseSchema, stoppedRuns: z.array(z.string()) }),
        ),
      },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.publish');
      if (row.state !== 'active') throw new ApiError(409, 'app-deleting', 'The app is being deleted.');
      const services = c.get('services');
      if (row.kind === 'router') {
        // A router has no runs of its own: its publish interrupts nothing.
        const release = await publishRouterRelease(services, row, currentActor(c), c.req.valid('json').notes);
        return c.json({ release: { ...summary(release), snapshot: JSON.parse(release.config_snapshot) }, stoppedRuns: [] }, 201);
      }
      if (row.kind === 'workflow') {
        // D-P2: a workflow publish interrupts nothing; its runs finish on the release they started on.
        const release = await publishWorkflowRelease(services, row, currentActor(c), c.req.valid('json').notes);
        return c.json({ release: { ...summary(release), snapshot: JSON.parse(release.config_snapshot) }, stoppedRuns: [] }, 201);
      }
      const release = await publishAgentRelease(services, row, currentActor(c), c.req.valid('json').notes);
      const stoppedRuns = await stopRunsOfOlderReleases(services, row, release, currentActor(c));
      return c.json({ release: { ...summary(release), snapshot: JSON.parse(release.config_snapshot) }, stoppedRuns }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}/releases',
      operationId: 'listReleases',
      tags: ['Releases'],
      summary: 'List releases',
      description: 'Releases, newest first.',
      request: { params: appParameters },
      responses: { 200: jsonResponse('Releases.', z.object({ releases: z.array(releaseSummarySchema) })) },
    }),
    async (c) => {
      const { app: row } = await authorizeApp(c, c.req.valid('param').appId, 'apps.read');
      const rows = await listReleases(c.get('services').database, row.id);
      return c.json({ releases: rows.map(summary) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/apps/{appId}/releases/{version}',
      operationId: 'getRelease',
      tags: ['Releases'],
      summary: 'Read a release',
      description: 'One release with its snapshot.',
      request: {
        params: appParameters.extend({
          version: z.coerce
            .number()
            .int()
            .positive()
            .openapi({ param: { name: 'version', in: 'path' } }),
        }),
      },
      responses: { 200: jsonResponse('The release.', z.object({ release: releaseSchema })) },
    }),
    async (c) => {
      const { appId, version } = c.req.valid('param');
      const { app: row } = await authorizeApp(c, appId, 'apps.read');
      const release = await findRelease(c.get('services').database, row.id, version);
      if (!release) throw notFound('The release');
      return c.json({ release: { ...summary(release), snapshot: JSON.parse(release.config_snapshot) } }, 200);
    },
  );

  return app;
}
