import type { Context } from 'hono';
import { Hono } from 'hono';
import { hashToken } from '../../adapters/crypto/index.js';
import { findApp } from '../../adapters/database/repositories/app-repository.js';
import { useApiKey } from '../../adapters/identity/index.js';
import { readA2aExposure, readAgentCard } from '../../application/a2a/a2a-exposure.js';
import { A2AProtocolError, a2aErrorCodes } from '../../domain/a2a-errors.js';
import { ApiError } from '../api-error.js';
import { currentActor } from '../authentication.js';
import { authorizeAppUse } from '../authorization.js';
import { limitBody } from '../body-limit.js';
import type { PlatformEnvironment } from '../services.js';
import { errorResponse, readJsonRpcRequest } from './a2a-json-rpc.js';
import { dispatchA2aMethod } from './a2a-methods.js';

/** The path of the Agent Card below an app's A2A base path (A2A 1.0 §8.2). */
export const agentCardPath = '/.well-known/agent-card.json';

/** An app published over A2A, or the same 404 for an unknown app, a switched-off one and one being deleted. */
async function publishedApp(c: Context<PlatformEnvironment>, appId: string) {
  const services = c.get('services');
  const app = await findApp(services.database, appId);
  if (app?.state !== 'active' || !(await readA2aExposure(services, app.id)).enabled)
    throw new ApiError(404, 'a2a-not-enabled', 'No agent is published over A2A here.');
  return app;
}

/**
 * The caller of a JSON-RPC request: the bearer API key of the app (or of its space), the card's
 * one security scheme. Cookie sessions are not accepted here (no CSRF surface on a machine API).
 */
async function authenticateBearer(c: Context<PlatformEnvironment>): Promise<void> {
  const { database, now } = c.get('services');
  const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const key = token ? await useApiKey(database, hashToken(token), now()) : undefined;
  if (!key) {
    c.header('WWW-Authenticate', 'Bearer realm="a2a"');
    throw new ApiError(401, 'unauthenticated', "Send the app's API key as a bearer token.");
  }
  c.set(
    'principal',
    key.app_id
      ? { kind: 'app-key', keyId: key.id, spaceId: key.space_id, appId: key.app_id, createdBy: key.created_by }
      : { kind: 'space-key', keyId: key.id, spaceId: key.space_id, createdBy: key.created_by },
  );
}

/** Whether the request speaks A2A 1.0: `A2A-Version` 1.0 (header or query), or no version with a 1.0 method name. */
function assertVersion(c: Context<PlatformEnvironment>, method: string): void {
  const version = c.req.header('a2a-version') ?? c.req.query('A2A-Version') ?? '';
  const legacy = version === '' ? method.includes('/') : !/^1(\.0)?$/.test(version.trim());
  if (legacy)
    throw new A2AProtocolError(
      a2aErrorCodes.versionNotSupported,
      'Only A2A 1.0 is served: send A2A-Version: 1.0 and the 1.0 method names (SendMessage, GetTask …).',
      { supportedVersions: ['1.0'] },
    );
}

/**
 * The A2A surface of published apps (issue 32), outside the REST API (`/api/v1`): per app, the
 * Agent Card (public, like any card: it says how to authenticate) and the JSON-RPC binding at the
 * card's interface URL. Both answer 404 `a2a-not-enabled` unless the app's A2A switch is on.
 */
export function a2aRoutes(bodyLimitBytes: number) {
  const app = new Hono<PlatformEnvironment>();

  app.get(`/apps/:appId${agentCardPath}`, async (c) => {
    const row = await publishedApp(c, c.req.param('appId'));
    c.header('Cache-Control', 'max-age=60');
    return c.json(await readAgentCard(c.get('services'), row, new URL(c.req.url).origin), 200);
  });

  app.post('/apps/:appId', limitBody(bodyLimitBytes), async (c) => {
    const row = await publishedApp(c, c.req.param('appId'));
    await authenticateBearer(c);
    const { seesAllSessions } = await authorizeAppUse(c, row.id);
    const caller = { actor: currentActor(c), seesAllSessions };
    let id: string | number | null = null;
    try {
      const request = readJsonRpcRequest(await c.req.text());
      id = request.id;
      assertVersion(c, request.method);
      return await dispatchA2aMethod(c, row, caller, request);
    } catch (error) {
      return errorResponse(c, id, error);
    }
  });

  return app;
}
