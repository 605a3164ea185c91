import { InvalidConfigurationError, type Tool } from '@agentloom/sdk';
import type { AssemblyPorts } from './assembly-ports.js';

/** A resource version a release pins, under the name the model or workflow knows it by. */
export interface PinnedResource {
  resourceId: string;
  version: number;
  name: string;
}

/** What building a pinned resource reads: the version, the secrets its headers name, and `fetch`. */
export type PinnedBuildPorts = Pick<AssemblyPorts, 'readResourceVersion' | 'readSecret' | 'fetch'>;

/** A problem of assembly, at the path of the draft or snapshot it concerns. */
export interface AssemblyIssue {
  path: string;
  message: string;
}

/**
 * Resolves stored headers (literal text, or `{ secret }` references) into the values sent, at
 * construction, so no secret is ever stored in a snapshot. Each missing secret is pushed onto
 * `issues` at `path`, and the answer is then undefined.
 */
export async function resolveHeaders(
  stored: Record<string, string | { secret: string }>,
  readSecret: AssemblyPorts['readSecret'],
  path: string,
  issues: AssemblyIssue[],
): Promise<Record<string, string> | undefined> {
  const headers: Record<string, string> = {};
  let missing = false;
  for (const [name, value] of Object.entries(stored)) {
    if (typeof value === 'string') headers[name] = value;
    else {
      const secret = await readSecret(value.secret);
      if (secret === undefined) {
        issues.push({ path, message: `the secret "${value.secret}" does not exist` });
        missing = true;
      } else headers[name] = secret;
    }
  }
  return missing ? undefined : headers;
}

/** A kind of pinned resource with request headers: what it is called, its headers, its SDK tool. */
export interface PinnedKind<Content> {
  /** How a build failure names it ("the tool"). */
  what: string;
  headersOf(content: Content): Record<string, string | { secret: string }> | undefined;
  build(content: Content, headers: Record<string, string>, pinned: PinnedResource, ports: PinnedBuildPorts): Tool;
}

/**
 * Builds the SDK tool of a pinned resource version whose content carries request headers (a
 * custom HTTP tool, a remote agent): reads the version, resolves the secrets its headers name (now,
 * never stored in a snapshot) and builds the tool. A missing secret or a refusal of the SDK is
 * pushed onto `issues` at `path` ("cannot build <what>: …") and answers undefined, so that
 * assembly reports every problem together.
 */
export async function buildPinnedResource<Content>(
  pinned: PinnedResource,
  ports: PinnedBuildPorts,
  path: string,
  issues: AssemblyIssue[],
  kind: PinnedKind<Content>,
): Promise<Tool | undefined> {
  const content = (await ports.readResourceVersion(pinned.resourceId, pinned.version)).content as Content;
  const headers = await resolveHeaders(kind.headersOf(content) ?? {}, ports.readSecret, path, issues);
  if (!headers) return undefined;
  try {
    return kind.build(content, headers, pinned, ports);
  } catch (error) {
    const detail =
      error instanceof InvalidConfigurationError
        ? error.issues.map((issue) => issue.message).join('; ')
        : (error as Error).message;
    issues.push({ path, message: `cannot build ${kind.what}: ${detail}` });
    return undefined;
  }
}
