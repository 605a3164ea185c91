import type { Hook, HookDecision, HookTrigger } from '@agentloom/sdk';
import { readBoundedText } from '../adapters/outbound/index.js';
import type { AssemblyPorts } from './assembly-ports.js';
import { resolveHeaders } from './pinned-resource.js';

/** A hook resource's stored content (see `hookContentSchema`). */
export interface HttpHookContent {
  trigger: HookTrigger;
  kind: 'http';
  url: string;
  headers: Record<string, string | { secret: string }>;
  matcher?: string[];
  timeoutMs: number;
  failClosed: boolean;
}

/** The most answer text read from a hook endpoint (a decision is small). */
const maximumAnswerCharacters = 100_000;

/**
 * Turns a hook resource into an SDK hook (K-4) whose handler is a webhook: it POSTs
 * `{ trigger, identity, subject }` as JSON with the resolved headers and `X-AgentLoom-Run-Id`,
 * and answers the endpoint's JSON `HookDecision`. An empty body (or 204) is no opinion. A non-2xx
 * answer or a body that is not JSON throws, and an answer that is JSON but not a decision is
 * handed on as is: the SDK treats all three as a hook failure (K-7) — skipped, or a deny when the
 * resource is `failClosed`. The SDK's timeout (the resource's `timeoutMs`) aborts the request.
 */
export function buildHttpHook(
  name: string,
  content: HttpHookContent,
  headers: Record<string, string>,
  outboundFetch: typeof globalThis.fetch,
): Hook {
  return {
    name,
    ...(content.matcher && content.matcher.length > 0 ? { matcher: content.matcher } : {}),
    timeoutMs: content.timeoutMs,
    failClosed: content.failClosed,
    handle: async (subject, context) => {
      const response = await outboundFetch(content.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...headers,
          // Last, so a stored header cannot claim another run's identity (K-8: identity is read-only).
          'x-agentloom-run-id': context.identity.runId,
        },
        body: JSON.stringify({ trigger: content.trigger, identity: context.identity, subject }),
        signal: context.signal,
      });
      const text = (await readBoundedText(response, maximumAnswerCharacters * 4)).slice(0, maximumAnswerCharacters);
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 500)}`);
      if (response.status === 204 || text.trim() === '') return undefined;
      try {
        return JSON.parse(text) as HookDecision;
      } catch {
        throw new Error(`the hook answered something that is not JSON: ${text.slice(0, 200)}`);
      }
    },
  };
}

/**
 * Builds the hook of a pinned hook resource version: reads the version, resolves the secrets its
 * headers name (now, never stored) and builds the SDK hook under `pinned.name`. A missing secret
 * is pushed onto `issues` at `path` and answers undefined, so assembly reports every problem together.
 */
export async function buildPinnedHttpHook(
  pinned: { resourceId: string; version: number; name: string },
  ports: Pick<AssemblyPorts, 'readResourceVersion' | 'readSecret' | 'fetch'>,
  path: string,
  issues: { path: string; message: string }[],
): Promise<{ trigger: HookTrigger; hook: Hook } | undefined> {
  const content = (await ports.readResourceVersion(pinned.resourceId, pinned.version)).content as HttpHookContent;
  const headers = await resolveHeaders(content.headers ?? {}, ports.readSecret, path, issues);
  if (!headers) return undefined;
  return { trigger: content.trigger, hook: buildHttpHook(pinned.name, content, headers, ports.fetch) };
}
