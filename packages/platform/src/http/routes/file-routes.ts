import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  agentFileArea,
  agentFileLimits,
  deleteAreaPath,
  type FileAreaRead,
  fileTooLarge,
  makeAreaFolder,
  putAreaFile,
  readAreaPath,
  sessionFileArea,
} from '../../application/files/index.js';
import { agentFileAreas } from '../../domain/agent-files.js';
import { ApiError } from '../api-error.js';
import { authorizeApp, authorizeSession } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonResponse } from '../openapi.js';
import type { PlatformEnvironment } from '../services.js';
import { contentTypeOf, fileMediaTypes } from './file-content-type.js';

/*
 * The agent's files (P-12.2) and a session's persistent work files (P-12.8), issue 36.
 *
 * A path below an area has any number of segments (`guides/intro.md`), which an OpenAPI path
 * parameter cannot express; each operation is declared in the document with `{path}` (the rest of
 * the URL, slashes included) and served by a Hono route whose parameter takes the rest
 * (`:path{.+}`), validated here with the same zod schemas the document shows.
 */

const areaParameter = z.enum(agentFileAreas).openapi({ param: { name: 'area', in: 'path' }, description: '`wiki` or `files`.' });
const pathParameter = z
  .string()
  .min(1)
  .max(4096)
  .openapi({
    param: { name: 'path', in: 'path' },
    description: 'The path below the area; it may contain `/` (`guides/intro.md`). `..` that leaves the area is refused.',
  });
const entrySchema = z
  .object({
    name: z.string(),
    type: z.enum(['file', 'directory', 'symbolic-link', 'other']),
    size: z.number().int(),
    modifiedAt: z.string(),
  })
  .openapi('FileEntry');
const listingSchema = z
  .object({
    path: z.string().openapi({ description: 'The folder, relative to the area (`` for the area).' }),
    entries: z.array(entrySchema),
  })
  .openapi('FileListing');
const putResultSchema = z
  .object({ path: z.string(), kind: z.enum(['file', 'directory']), size: z.number().int(), created: z.boolean() })
  .openapi('FilePut');
const deleteResultSchema = z.object({ path: z.string(), removed: z.enum(['file', 'directory']) }).openapi('FileDeleted');
const appAreaParameters = z.object({ appId: idParameter('appId'), area: areaParameter });
const appPathParameters = appAreaParameters.extend({ path: pathParameter });
const sessionParameters = z.object({ sessionId: idParameter('sessionId') });
const sessionPathParameters = sessionParameters.extend({ path: pathParameter });

const putQuery = z.object({ kind: z.enum(['file', 'directory']).default('file') });

const readResponses = {
  200: {
    description:
      'A folder: its listing (JSON). A file: its bytes, with the media type of its name (text, Markdown, CSV, images, PDF; JSON files as text/plain; anything else application/octet-stream).',
    content: {
      'application/json': { schema: listingSchema },
      ...Object.fromEntries(fileMediaTypes.map((type) => [type, { schema: z.string().openapi({ format: 'binary' }) }])),
    },
  },
};
const readErrors = {
  400: ['path-outside-area', 'invalid-path'],
  404: ['file-not-found'],
  409: ['path-refused'],
  413: ['file-too-large'],
};

const listAppFiles = apiRoute({
  method: 'get',
  path: '/apps/{appId}/files/{area}',
  operationId: 'listAppFiles',
  tags: ['Files'],
  summary: 'List an agent’s wiki or business files',
  description:
    'The top folder of the agent’s `wiki` or `files` area (P-12.2). Runs see them read-only at `/mounts/wiki` and `/mounts/files`.',
  errors: { 422: ['not-an-agent'] },
  request: { params: appAreaParameters },
  responses: { 200: jsonResponse('The listing.', listingSchema) },
});
const getAppFile = apiRoute({
  method: 'get',
  path: '/apps/{appId}/files/{area}/{path}',
  operationId: 'getAppFile',
  tags: ['Files'],
  summary: 'Read an agent file or list a folder',
  description: 'A folder answers its listing as JSON; a file answers its bytes (at most the configured file size).',
  errors: { ...readErrors, 422: ['not-an-agent'] },
  request: { params: appPathParameters },
  responses: readResponses,
});
const putAppFile = apiRoute({
  method: 'put',
  path: '/apps/{appId}/files/{area}/{path}',
  operationId: 'putAppFile',
  tags: ['Files'],
  summary: 'Upload an agent file or make a folder',
  description:
    'The raw request body is the file’s content (any media type; `application/octet-stream` is usual), written atomically; missing folders are made. `?kind=directory` makes a folder instead (no body). Limits: `AGENTLOOM_FILE_MAX_BYTES` per file (413 `file-too-large`), `AGENTLOOM_FILE_MAX_ENTRIES` files and folders per area (422 `too-many-files`).',
  errors: {
    400: ['path-outside-area', 'invalid-path'],
    403: ['read-only'],
    404: ['file-not-found'],
    409: ['path-refused', 'path-is-folder', 'path-is-file', 'app-deleting'],
    413: ['file-too-large'],
    422: ['too-many-files', 'not-an-agent'],
  },
  request: {
    params: appPathParameters,
    query: putQuery,
    body: {
      required: false,
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
  },
  responses: {
    200: jsonResponse('Replaced (or the folder was there).', putResultSchema),
    201: jsonResponse('Created.', putResultSchema),
  },
});
const deleteAppFile = apiRoute({
  method: 'delete',
  path: '/apps/{appId}/files/{area}/{path}',
  operationId: 'deleteAppFile',
  tags: ['Files'],
  summary: 'Delete an agent file or folder',
  description: 'Deletes a file, or a folder with everything in it. Links are removed themselves, never followed.',
  errors: {
    400: ['path-outside-area', 'invalid-path'],
    404: ['file-not-found'],
    409: ['path-refused', 'app-deleting'],
    422: ['not-an-agent'],
  },
  request: { params: appPathParameters },
  responses: { 200: jsonResponse('Deleted.', deleteResultSchema) },
});
const listSessionFiles = apiRoute({
  method: 'get',
  path: '/sessions/{sessionId}/files',
  operationId: 'listSessionFiles',
  tags: ['Files'],
  summary: 'List a session’s work files',
  description:
    'The top folder of the session’s persistent work directory (P-12.8), read-only. Without a persistent sandbox there is none: the listing is empty.',
  request: { params: sessionParameters },
  responses: { 200: jsonResponse('The listing.', listingSchema) },
});
const getSessionFile = apiRoute({
  method: 'get',
  path: '/sessions/{sessionId}/files/{path}',
  operationId: 'getSessionFile',
  tags: ['Files'],
  summary: 'Read a session’s work file or list a folder',
  description: 'A folder answers its listing as JSON; a file answers its bytes. Read-only.',
  errors: readErrors,
  request: { params: sessionPathParameters },
  responses: readResponses,
});

/** Parses path parameters with the document's schema; a mismatch is the usual typed 400. */
function parameters<Schema extends z.ZodType>(c: Context<PlatformEnvironment>, schema: Schema): z.infer<Schema> {
  const result = schema.safeParse(c.req.param());
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    code: issue.code,
    message: issue.message,
  }));
  throw new ApiError(400, 'invalid-request', 'The request does not match its schema.', { issues });
}

/** Answers a read: a listing as JSON, or a file's bytes that a browser never runs as a page of ours. */
function answerRead(c: Context<PlatformEnvironment>, read: FileAreaRead) {
  if (read.kind === 'directory') return c.json({ path: read.path, entries: read.entries }, 200);
  const { type, inline } = contentTypeOf(read.path);
  c.header('Content-Type', type);
  c.header('Content-Length', String(read.content.length));
  c.header('X-Content-Type-Options', 'nosniff');
  // An uploaded SVG or HTML file must not run scripts with the console's origin.
  c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  c.header(
    'Content-Disposition',
    `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(read.path.split('/').at(-1) ?? 'file')}`,
  );
  c.header('Cache-Control', 'no-store');
  return c.body(new Uint8Array(read.content), 200);
}

/** Reads the raw upload, refusing one over the limit before and after reading it. */
async function uploadedBytes(c: Context<PlatformEnvironment>, limitBytes: number): Promise<Buffer> {
  const declared = Number(c.req.header('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limitBytes) throw fileTooLarge(declared, limitBytes);
  const content = Buffer.from(await c.req.arrayBuffer());
  if (content.length > limitBytes) throw fileTooLarge(content.length, limitBytes);
  return content;
}

/** `/apps/{appId}/files/{area}/…` and `/sessions/{sessionId}/files/…` (see the note above). */
export function fileRoutes() {
  const app = createSubApp();
  for (const route of [listAppFiles, getAppFile, putAppFile, deleteAppFile, listSessionFiles, getSessionFile])
    app.openAPIRegistry.registerPath(route);
  const services = (c: Context<PlatformEnvironment>) => c.get('services');

  app.get('/apps/:appId/files/:area', async (c) => {
    const { appId, area } = parameters(c, appAreaParameters);
    const { app: row } = await authorizeApp(c, appId, 'apps.read');
    return answerRead(c, await readAreaPath(agentFileArea(row, area, false), '', agentFileLimits(services(c)).maxFileBytes));
  });
  app.get('/apps/:appId/files/:area/:path{.+}', async (c) => {
    const { appId, area, path } = parameters(c, appPathParameters);
    const { app: row } = await authorizeApp(c, appId, 'apps.read');
    return answerRead(c, await readAreaPath(agentFileArea(row, area, false), path, agentFileLimits(services(c)).maxFileBytes));
  });
  app.put('/apps/:appId/files/:area/:path{.+}', async (c) => {
    const { appId, area, path } = parameters(c, appPathParameters);
    const query = putQuery.safeParse(c.req.query());
    if (!query.success) throw new ApiError(400, 'invalid-request', 'The query `kind` is `file` or `directory`.', {});
    const { app: row } = await authorizeApp(c, appId, 'apps.manage');
    const fileArea = agentFileArea(row, area, true);
    if (query.data.kind === 'directory') {
      const made = await makeAreaFolder(services(c), fileArea, path);
      return c.json({ path: made.path, kind: 'directory' as const, size: 0, created: made.created }, made.created ? 201 : 200);
    }
    const content = await uploadedBytes(c, agentFileLimits(services(c)).maxFileBytes);
    const put = await putAreaFile(services(c), fileArea, path, content);
    return c.json({ path: put.path, kind: 'file' as const, size: put.size, created: put.created }, put.created ? 201 : 200);
  });
  app.delete('/apps/:appId/files/:area/:path{.+}', async (c) => {
    const { appId, area, path } = parameters(c, appPathParameters);
    const { app: row } = await authorizeApp(c, appId, 'apps.manage');
    return c.json(await deleteAreaPath(agentFileArea(row, area, true), path), 200);
  });
  app.get('/sessions/:sessionId/files', async (c) => {
    const { sessionId } = parameters(c, sessionParameters);
    const { session, app: row } = await authorizeSession(c, sessionId);
    return answerRead(c, await readAreaPath(sessionFileArea(row, session), '', agentFileLimits(services(c)).maxFileBytes));
  });
  app.get('/sessions/:sessionId/files/:path{.+}', async (c) => {
    const { sessionId, path } = parameters(c, sessionPathParameters);
    const { session, app: row } = await authorizeSession(c, sessionId);
    return answerRead(c, await readAreaPath(sessionFileArea(row, session), path, agentFileLimits(services(c)).maxFileBytes));
  });
  return app;
}
