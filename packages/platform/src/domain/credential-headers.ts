import type { ResourceType } from './resource-content.js';

/**
 * Header names whose value is a credential (P-15.4): `Authorization`, `Proxy-Authorization`,
 * `Cookie`, and any name ending in `-Key`, `-Token`, `-Secret`, `-Password`, `-Credential(s)`,
 * `-Signature` or `ApiKey` (`X-Api-Key`, `Private-Token` …).
 */
const credentialHeaderName =
  /^(authorization|proxy-authorization|cookie)$|(^|-)(key|token|secret|password|passwd|credentials?|signature)$|apikey$/i;
/** The same for the environment variables of a stdio MCP server (`GITHUB_TOKEN`, `OPENAI_API_KEY` …). */
const credentialVariableName = /(^|_)(key|token|secret|password|passwd|credentials?|signature)$|apikey$/i;

/** What a stored literal credential reads as in API answers (the version routes never return it). */
export const hiddenCredential = '[hidden: a literal credential; replace it with {"secret": "NAME"}]';

/** A problem of one field, in the shape of the API's validation issues. */
export interface CredentialIssue {
  path: string;
  message: string;
}

interface NamedValues {
  /** The path of the object holding the values, inside the resource content. */
  path: readonly string[];
  values: Record<string, unknown>;
  isCredential: (name: string) => boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The header (or variable) maps a resource's content holds; stored content of any age is read defensively. */
function namedValuesOf(type: ResourceType, content: unknown): NamedValues[] {
  if (!isRecord(content)) return [];
  const header = (name: string) => credentialHeaderName.test(name);
  if (type === 'tool' && isRecord(content.request) && isRecord(content.request.headers))
    return [{ path: ['request', 'headers'], values: content.request.headers, isCredential: header }];
  if ((type === 'hook' || type === 'mcp-server' || type === 'remote-agent') && isRecord(content.headers))
    return [{ path: ['headers'], values: content.headers, isCredential: header }];
  if (type === 'mcp-server' && isRecord(content.env))
    return [{ path: ['env'], values: content.env, isCredential: (name) => credentialVariableName.test(name) }];
  return [];
}

/**
 * The literal credential values of new resource content: each is refused at its field, with a
 * message that says how to keep it instead (a space secret, referenced as `{"secret": "NAME"}`,
 * sealed with the instance key and resolved only when a run is assembled).
 */
export function literalCredentialIssues(type: ResourceType, content: unknown): CredentialIssue[] {
  return namedValuesOf(type, content).flatMap(({ path, values, isCredential }) =>
    Object.entries(values)
      .filter(([name, value]) => typeof value === 'string' && isCredential(name))
      .map(([name]) => ({
        path: ['content', ...path, name].join('.'),
        message: `"${name}" carries a credential, and literal credentials are not stored: save the value as a space secret (Secrets page, or POST /spaces/{spaceId}/secrets) and set this field to {"secret": "NAME"}.`,
      })),
  );
}

/**
 * A copy of stored content with every literal credential value replaced by `hiddenCredential`.
 * Versions saved before literal credentials were refused still hold them; they keep working in
 * runs, but no answer returns them.
 */
export function hideLiteralCredentials(type: ResourceType, content: unknown): unknown {
  const places = namedValuesOf(type, content);
  if (places.length === 0) return content;
  const copy = structuredClone(content) as Record<string, unknown>;
  for (const { path, isCredential } of places) {
    let holder: unknown = copy;
    for (const segment of path) holder = (holder as Record<string, unknown>)[segment];
    const values = holder as Record<string, unknown>;
    for (const [name, value] of Object.entries(values))
      if (typeof value === 'string' && isCredential(name)) values[name] = hiddenCredential;
  }
  return copy;
}
