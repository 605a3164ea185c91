import { a2aAgent } from '@agentloom/sdk/capabilities/a2a';
import type { PinnedKind } from './pinned-resource.js';

/** A remote agent resource's stored content (see `remoteAgentContentSchema`). */
export interface RemoteAgentContent {
  cardUrl: string;
  headers?: Record<string, string | { secret: string }>;
  description: string;
  pollMs?: number;
}

/**
 * The SDK tool of a pinned remote agent resource version (N-13, `buildPinnedResource`): `a2aAgent`
 * under the resource's name, its card URL and description from the version, the headers'
 * `{ secret }` references resolved now (never stored in a snapshot) and sent with the card
 * request and every call, and every request made through the outbound module's `fetch`, so the
 * egress policy decides over the card and the calls alike (P-15.1). Building reads nothing over
 * the network (the card is read on the first call).
 */
export const pinnedRemoteAgent: PinnedKind<RemoteAgentContent> = {
  what: 'the remote agent',
  headersOf: (content) => content.headers,
  build: (content, headers, pinned, ports) =>
    a2aAgent({
      cardUrl: content.cardUrl,
      name: pinned.name,
      description: content.description,
      ...(Object.keys(headers).length > 0 ? { auth: { headers } } : {}),
      ...(content.pollMs !== undefined ? { pollMs: content.pollMs } : {}),
      fetch: ports.fetch,
    }).tool,
};
