import type { EgressDeniedError } from '../adapters/outbound/index.js';
import { ApiError } from './api-error.js';
import type { PlatformServices } from './services.js';

/** The typed 422 of a refused destination: `egress-denied`, with the rule and, for a saved field, its path. */
export function egressDeniedError(refusal: EgressDeniedError, field?: string): ApiError {
  return new ApiError(422, 'egress-denied', field ? `${field}: ${refusal.message}` : refusal.message, {
    rule: refusal.rule,
    ...(field ? { field } : {}),
  });
}

/**
 * Refuses a URL field at once when the egress policy refuses it (P-15.1): a scheme other than
 * http/https, or a literal address (any spelling) or `localhost` the policy refuses. Called when a
 * resource, connection or hook is saved and when a run names a webhook, before anything is written.
 */
export function refuseDeniedUrl(services: Pick<PlatformServices, 'outbound'>, field: string, url: string | null | undefined) {
  if (!url) return;
  const refusal = services.outbound.policy.checkUrl(url);
  if (refusal) throw egressDeniedError(refusal, field);
}

/** The outbound URL field of a resource's content, if its type has one. */
export function resourceUrlField(type: string, content: unknown): { field: string; url: string } | undefined {
  const value = (content ?? {}) as { url?: unknown; request?: { url?: unknown }; transport?: unknown; cardUrl?: unknown };
  if (type === 'remote-agent' && typeof value.cardUrl === 'string') return { field: 'content.cardUrl', url: value.cardUrl };
  if (type === 'tool' && typeof value.request?.url === 'string') return { field: 'content.request.url', url: value.request.url };
  if ((type === 'hook' || (type === 'mcp-server' && value.transport === 'streamable-http')) && typeof value.url === 'string')
    return { field: 'content.url', url: value.url };
  return undefined;
}
