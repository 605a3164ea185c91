import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ResourceRow } from '../../adapters/database/index.js';
import { InvalidPackageError, type PackageFile, readZipPackage } from '../../adapters/skills/read-zip.js';
import { resourceOfSpace } from '../../application/resources/resource-service.js';
import { literalCredentialIssues } from '../../domain/credential-headers.js';
import { contentSchemaNames, contentSchemaOf, resourceTypes } from '../../domain/resource-content.js';
import { ApiError } from '../api-error.js';
import { requirePrincipal } from '../authentication.js';
import { refuseDeniedUrl, resourceUrlField } from '../egress-refusal.js';
import { idParameter } from '../openapi.js';
import type { PlatformEnvironment } from '../services.js';
import { spaceEntityLoader } from './space-entity.js';

/*
 * The request side of the resource routes: their schemas, the resource lookup behind each one,
 * the validation of JSON content per type and the reading of a skill package from the body.
 */

export const resourceSchema = z
  .object({
    id: z.string(),
    spaceId: z.string(),
    type: z.enum(resourceTypes),
    name: z.string(),
    description: z.string(),
    state: z.enum(['active', 'archived']),
    latestVersion: z.number(),
    updatedAt: z.string(),
  })
  .openapi('Resource');
export const versionSchema = z
  .object({
    version: z.number(),
    content: z.unknown(),
    storageRef: z.string().nullable(),
    contentHash: z.string(),
    createdAt: z.string(),
  })
  .openapi('ResourceVersion');
export const referenceSchema = z
  .object({
    appId: z.string(),
    appName: z.string(),
    releaseId: z.string().nullable(),
    releaseVersion: z.number().nullable(),
    resourceVersion: z.number().nullable(),
  })
  .openapi('ResourceReference');
/**
 * A resource's JSON `content` as the document types it: one of the content schemas of its type
 * (`PromptContent`, `ToolContent`, `McpServerContent`, `HookContent`). The route still takes any
 * JSON here and checks it against its type's schema itself, so that a mismatch is the typed 400
 * listing every issue under `content.`.
 */
const typedContent = () =>
  z
    .unknown()
    .optional()
    .openapi({
      description: 'The JSON content of a prompt, tool, MCP server or hook: the content schema of the resource type.',
      anyOf: Object.keys(contentSchemaNames).map((name) => ({ $ref: `#/components/schemas/${name}` })),
    });
export const packageFileSchema = z.strictObject({ path: z.string().min(1).max(500), contentBase64: z.string().max(70_000_000) });
export const versionBody = z
  .strictObject({ content: typedContent(), files: z.array(packageFileSchema).max(1000).optional() })
  .openapi('NewResourceVersion', {
    description:
      'JSON content for prompts, tools, MCP servers and hooks; `files` (a folder) for skills. Skills may also be sent as an application/zip body.',
  });
export const createBody = z
  .strictObject({
    type: z.enum(resourceTypes),
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
    content: typedContent(),
  })
  .openapi('CreateResource');
export { spaceParameters } from './space-list-route.js';
export const resourceParameters = z.object({ spaceId: idParameter('spaceId'), resourceId: idParameter('resourceId') });
export const resourceResult = z.object({ resource: resourceSchema });

/** A resource of the space, checked against `action`; 404 for ids of other spaces. */
export const loadResource = spaceEntityLoader('resourceId', resourceOfSpace);

/**
 * Validates JSON content for its type; stdio MCP servers run host processes, so only instance
 * admins may define them; an outbound URL the egress policy refuses is a 422 `egress-denied` (P-15.1).
 */
export function parseContent(
  c: Context<PlatformEnvironment>,
  type: Exclude<ResourceRow['type'], 'skill'>,
  content: unknown,
): unknown {
  const result = contentSchemaOf[type].safeParse(content);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: ['content', ...issue.path.map(String)].join('.'),
      code: issue.code,
      message: issue.message,
    }));
    throw new ApiError(400, 'invalid-request', `The ${type} content does not match its schema.`, { issues });
  }
  const credentials = literalCredentialIssues(type, result.data);
  if (credentials.length > 0) {
    throw new ApiError(422, 'literal-credential', 'Credentials go in space secrets, not in literal values (P-15.4).', {
      issues: credentials,
    });
  }
  const principal = requirePrincipal(c);
  if (
    type === 'mcp-server' &&
    (result.data as { transport: string }).transport === 'stdio' &&
    !(principal.kind === 'user' && principal.isInstanceAdmin)
  ) {
    throw new ApiError(
      403,
      'stdio-mcp-admin-only',
      'Only instance administrators may add stdio MCP servers: they run processes on the host.',
    );
  }
  const outbound = resourceUrlField(type, result.data);
  if (outbound) refuseDeniedUrl(c.get('services'), outbound.field, outbound.url);
  return result.data;
}

/** Reads a skill package from a zip body or a JSON folder (`files`). */
export async function readPackage(
  c: Context<PlatformEnvironment>,
  files: z.infer<typeof packageFileSchema>[] | undefined,
): Promise<PackageFile[]> {
  const contentType = c.req.header('content-type') ?? '';
  try {
    if (/^application\/(zip|x-zip-compressed)\b/i.test(contentType))
      return await readZipPackage(new Uint8Array(await c.req.arrayBuffer()));
  } catch (error) {
    if (error instanceof InvalidPackageError) throw new ApiError(422, error.code, error.message, { problems: error.problems });
    throw error;
  }
  if (!files || files.length === 0)
    throw new ApiError(400, 'package-required', 'Send the skill as an application/zip body or as `files`.');
  return files.map((file) => ({ path: file.path, content: new Uint8Array(Buffer.from(file.contentBase64, 'base64')) }));
}
