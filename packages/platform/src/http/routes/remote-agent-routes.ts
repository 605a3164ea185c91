import { fetchAgentCard, selectInterface } from '@agentloom/sdk/capabilities/a2a';
import { z } from '@hono/zod-openapi';
import { findEgressDenial } from '../../adapters/outbound/index.js';
import { databaseAssemblyPorts } from '../../application/releases/database-assembly-ports.js';
import { resolveHeaders } from '../../assembly/pinned-resource.js';
import type { RemoteAgentContent } from '../../assembly/remote-agents.js';
import { ApiError } from '../api-error.js';
import { egressDeniedError } from '../egress-refusal.js';
import { apiRoute, createSubApp, idParameter, jsonResponse } from '../openapi.js';
import { loadResource } from './resource-routes.js';

const resourceParameters = z.object({ spaceId: idParameter('spaceId'), resourceId: idParameter('resourceId') });

/** How long reading a card may take before the check gives up. */
const cardTimeoutMs = 15_000;

const cardResult = z
  .object({
    card: z.object({
      name: z.string(),
      description: z.string(),
      version: z.string().nullable(),
      interfaceUrl: z.string().openapi({ description: 'The JSON-RPC interface (protocol version 1.0) runs will call.' }),
      streaming: z.boolean(),
      skills: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
    }),
  })
  .openapi('RemoteAgentCard');

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * `POST /spaces/:spaceId/resources/:resourceId/agent-card`: reads a remote agent resource's
 * Agent Card the way a run will (its newest version, header secrets resolved now, through the
 * outbound module and its egress policy, P-15.1) and answers what the card offers. The remote's
 * own words are never echoed in an error (P-15.2): 502 `card-unreachable` (transport, HTTP status
 * as details) or `card-invalid` (no A2A 1.0 JSON-RPC interface), 422 `secret-missing` /
 * `egress-denied`, 422 `not-a-remote-agent` for other resource types.
 */
export function remoteAgentRoutes() {
  const app = createSubApp();
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/resources/{resourceId}/agent-card',
      operationId: 'readRemoteAgentCard',
      tags: ['Resources'],
      summary: 'Read a remote agent’s card',
      errors: {
        409: ['no-version'],
        422: ['not-a-remote-agent', 'secret-missing', 'egress-denied'],
        502: ['card-unreachable', 'card-invalid'],
      },
      description:
        'Fetches the Agent Card of a remote A2A agent resource (newest version, its headers sent) through the egress policy, and answers its name, skills and the JSON-RPC interface runs will call.',
      request: { params: resourceParameters },
      responses: { 200: jsonResponse('The card the remote agent serves.', cardResult) },
    }),
    async (c) => {
      const row = await loadResource(c, 'resources.manage');
      if (row.type !== 'remote-agent')
        throw new ApiError(422, 'not-a-remote-agent', 'Only remote agent resources have an agent card.');
      if (row.latest_version < 1) throw new ApiError(409, 'no-version', 'The resource has no version yet.');
      const services = c.get('services');
      const ports = databaseAssemblyPorts(services, { space_id: row.space_id, file_root: '' });
      const content = (await ports.readResourceVersion(row.id, row.latest_version)).content as RemoteAgentContent;
      const issues: { path: string; message: string }[] = [];
      const headers = await resolveHeaders(content.headers ?? {}, ports.readSecret, 'content.headers', issues);
      if (!headers) throw new ApiError(422, 'secret-missing', issues.map((issue) => issue.message).join('; '));
      let card: Awaited<ReturnType<typeof fetchAgentCard>>;
      try {
        card = await fetchAgentCard(content.cardUrl, { headers }, ports.fetch, AbortSignal.timeout(cardTimeoutMs));
      } catch (error) {
        const denial = findEgressDenial(error);
        if (denial) throw egressDeniedError(denial, 'content.cardUrl');
        const status = /HTTP (\d{3})/.exec((error as Error).message)?.[1];
        throw new ApiError(
          502,
          'card-unreachable',
          `The agent card could not be read${status ? ` (HTTP ${status})` : ''}.`,
          status ? { httpStatus: Number(status) } : {},
        );
      }
      let interfaceUrl: string;
      try {
        interfaceUrl = selectInterface(card, content.cardUrl).url;
      } catch {
        throw new ApiError(502, 'card-invalid', 'The card offers no JSON-RPC interface with A2A protocol version 1.0.');
      }
      return c.json(
        {
          card: {
            name: text(card.name),
            description: text(card.description),
            version: typeof card.version === 'string' ? card.version : null,
            interfaceUrl,
            streaming: card.capabilities?.streaming === true,
            skills: (Array.isArray(card.skills) ? card.skills : []).map((skill) => ({
              id: text(skill?.id),
              name: text(skill?.name),
              description: text(skill?.description),
            })),
          },
        },
        200,
      );
    },
  );
  return app;
}
