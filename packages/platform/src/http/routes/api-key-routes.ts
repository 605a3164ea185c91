import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createKey, listKeys, revokeKey } from '../../application/keys/key-service.js';
import { currentActor } from '../authentication.js';
import { authorizeApp, authorizeSpace } from '../authorization.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse, okSchema } from '../openapi.js';
import type { PlatformEnvironment } from '../services.js';
import { apiKeySchema, apiKeyView, createdApiKeySchema } from './views.js';

/** Whose keys a key sub-app manages: an app's (run routes of that app only) or a space's. */
interface KeyOwnerKind {
  /** The path parameter of the owner and the collection path. */
  parameter: 'appId' | 'spaceId';
  path: '/apps/{appId}/api-keys' | '/spaces/{spaceId}/api-keys';
  /** `App` or `Space`: names the operations (`listAppKeys`, …). */
  name: 'App' | 'Space';
  /** The key in words, one and many (`an app key`, `app keys`). */
  one: string;
  many: string;
  /** The component name of the create body (kept as it was for generated clients). */
  createBody: 'CreateAppKey' | 'CreateApiKey';
  /** Authorises the caller to manage the owner's keys; the owner's space and app (null for a space key). */
  authorize(c: Context<PlatformEnvironment>, id: string): Promise<{ spaceId: string; appId: string | null }>;
}

const appKeys: KeyOwnerKind = {
  parameter: 'appId',
  path: '/apps/{appId}/api-keys',
  name: 'App',
  one: 'an app key',
  many: 'app keys',
  createBody: 'CreateAppKey',
  async authorize(c, id) {
    const { app } = await authorizeApp(c, id, 'app-keys.manage');
    return { spaceId: app.space_id, appId: app.id };
  },
};

const spaceKeys: KeyOwnerKind = {
  parameter: 'spaceId',
  path: '/spaces/{spaceId}/api-keys',
  name: 'Space',
  one: 'a space key',
  many: 'space keys',
  createBody: 'CreateApiKey',
  async authorize(c, id) {
    const { space } = await authorizeSpace(c, id, 'space-keys.manage');
    return { spaceId: space.id, appId: null };
  },
};

/** The list and revoke scope of an owner: the app's keys, or the space's own keys. */
const scopeOf = (owner: { spaceId: string; appId: string | null }) =>
  owner.appId ? { appId: owner.appId } : { spaceId: owner.spaceId };

/**
 * API keys of one kind of owner, shown once and stored hashed: list (prefixes only), create, revoke.
 * App keys may only use their app's run routes (Dify-style); space keys use the space's HTTP API.
 */
function apiKeyRoutes(kind: KeyOwnerKind) {
  const app = createSubApp();
  const ownerParameters = z.object({ [kind.parameter]: idParameter(kind.parameter) });
  const ownerId = (c: Context<PlatformEnvironment>) => c.req.param(kind.parameter) ?? '';

  app.openapi(
    apiRoute({
      method: 'get',
      path: kind.path,
      operationId: `list${kind.name}Keys`,
      tags: ['API keys'],
      summary: `List ${kind.many}`,
      description: `List ${kind.many} (prefixes only).`,
      request: { params: ownerParameters },
      responses: { 200: jsonResponse('Keys.', z.object({ keys: z.array(apiKeySchema) })) },
    }),
    async (c) => {
      const owner = await kind.authorize(c, ownerId(c));
      const keys = await listKeys(c.get('services'), scopeOf(owner));
      return c.json({ keys: keys.map(apiKeyView) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: kind.path,
      operationId: `create${kind.name}Key`,
      tags: ['API keys'],
      summary: `Create ${kind.one}`,
      description: `Create ${kind.one}; the secret is in this response only.`,
      request: {
        params: ownerParameters,
        body: jsonBody(z.strictObject({ name: z.string().trim().min(1).max(200) }).openapi(kind.createBody)),
      },
      responses: { 201: jsonResponse('Created.', createdApiKeySchema) },
    }),
    async (c) => {
      const owner = await kind.authorize(c, ownerId(c));
      const { key, secret } = await createKey(c.get('services'), owner, c.req.valid('json').name, currentActor(c));
      return c.json({ key: apiKeyView(key), secret }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: `${kind.path}/{keyId}`,
      operationId: `revoke${kind.name}Key`,
      tags: ['API keys'],
      summary: `Revoke ${kind.one}`,
      description: `Revoke ${kind.one}.`,
      request: { params: ownerParameters.extend({ keyId: idParameter('keyId') }) },
      responses: { 200: jsonResponse('Revoked.', okSchema) },
    }),
    async (c) => {
      const owner = await kind.authorize(c, ownerId(c));
      await revokeKey(c.get('services'), scopeOf(owner), c.req.param('keyId') ?? '');
      return c.json({ ok: true as const }, 200);
    },
  );

  return app;
}

/** `/apps/:appId/api-keys`: keys that may only use this app's run routes (Dify-style app keys). */
export const appKeyRoutes = () => apiKeyRoutes(appKeys);

/** `/spaces/:spaceId/api-keys`: space keys for the HTTP API, shown once, stored hashed. */
export const spaceKeyRoutes = () => apiKeyRoutes(spaceKeys);
