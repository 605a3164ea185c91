import { InvalidConfigurationError, type Tool } from '@agentloom/sdk';
import { a2aAgent } from '@agentloom/sdk/capabilities/a2a';
import type { AssemblyPorts } from './assembly-ports.js';
import { resolveHeaders } from './http-tool.js';

/** A remote agent resource's stored content (see `remoteAgentContentSchema`). */
export interface RemoteAgentContent {
  cardUrl: string;
  headers?: Record<string, string | { secret: string }>;
  description: string;
  pollMs?: number;
}

/**
 * Builds the SDK tool of a pinned remote agent resource version (N-13): the SDK's `a2aAgent`
 * under the resource's name, its card URL and description from the version, the headers'
 * `{ secret }` references resolved now (never stored in a snapshot) and sent with the card
 * request and every call, and every request made through the outbound module's `fetch`, so the
 * egress policy decides over the card and the calls alike (P-15.1). Building reads nothing over
 * the network (the card is read on the first call). A problem is pushed onto `issues` at `path`
 * and answers undefined, so that assembly reports every problem together.
 */
export async function buildPinnedRemoteAgent(
  pinned: { resourceId: string; version: number; name: string },
  ports: Pick<AssemblyPorts, 'readResourceVersion' | 'readSecret' | 'fetch'>,
  path: string,
  issues: { path: string; message: string }[],
): Promise<Tool | undefined> {
  const content = (await ports.readResourceVersion(pinned.resourceId, pinned.version)).content as RemoteAgentContent;
  const headers = await resolveHeaders(content.headers ?? {}, ports.readSecret, path, issues);
  if (!headers) return undefined;
  try {
    return a2aAgent({
      cardUrl: content.cardUrl,
      name: pinned.name,
      description: content.description,
      ...(Object.keys(headers).length > 0 ? { auth: { headers } } : {}),
      ...(content.pollMs !== undefined ? { pollMs: content.pollMs } : {}),
      fetch: ports.fetch,
    }).tool;
  } catch (error) {
    const detail =
      error instanceof InvalidConfigurationError
        ? error.issues.map((issue) => issue.message).join('; ')
        : (error as Error).message;
    issues.push({ path, message: `cannot build the remote agent: ${detail}` });
    return undefined;
  }
}
