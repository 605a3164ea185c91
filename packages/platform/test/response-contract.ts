import { appendFileSync } from 'node:fs';
import OpenAPIBackend, { type AjvCustomizer, type Document } from 'openapi-backend';
import { exportOpenApiDocument } from '../src/cli/export-openapi.js';

/**
 * The response contract of the platform's HTTP suites: every JSON answer a test client gets is
 * checked against the OpenAPI document the app serves — the operation of its method and path, the
 * response of its status, the schema of its media type — with openapi-backend's validator (Ajv).
 * A route that answers something its document does not say fails the test that called it, so the
 * document cannot drift from the server unnoticed (issue 30, part 5).
 */

/** A response as the test client saw it. */
export interface SeenResponse {
  method: string;
  /** The path under `/api/v1`, with or without a query string. */
  path: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body, or the text when it was not JSON. */
  body: unknown;
}

/** What the check found: nothing to check (no operation, not JSON), valid, or the problems. */
export type ContractVerdict = { checked: false; reason: string } | { checked: true; operationId: string; problems: string[] };

/** The validator of one document: the document is the same for every platform, so one is built. */
let backend: Promise<OpenAPIBackend> | undefined;

/** How many responses were checked in this process (for the suites' own sanity checks). */
export const contractStatistics = { checked: 0, skipped: 0 };

/** `AGENTLOOM_CONTRACT_REPORT=<file>`: each checked response adds a line `operationId status` to that file (coverage). */
const reportFile = process.env.AGENTLOOM_CONTRACT_REPORT;

/**
 * Builds (once) the validator of the document the platform serves at `/api/v1/openapi.json`,
 * exported from a throw-away in-process platform: the same document every test platform serves,
 * and still there after a suite has stopped (or SIGKILLed) the platform process it talked to.
 */
export function contractOf(): Promise<OpenAPIBackend> {
  backend ??= (async () => {
    const document = (await exportOpenApiDocument()) as unknown as Document;
    // Paths are matched as the test clients write them, without the `/api/v1` server prefix.
    // `quick` skips the library's own check of the document, which knows OpenAPI 3.0 only (the 3.1
    // document is checked by openapi.test.ts and redocly), and dereferences it synchronously.
    // One Ajv for every response validator, so that a schema shared by many operations (the
    // `Error` body, `RunEvent`) is compiled once, not once per operation and status.
    let shared: Parameters<AjvCustomizer>[0] | undefined;
    const api = new OpenAPIBackend({
      definition: { ...document, servers: [] },
      quick: true,
      strict: true,
      customizeAjv: (ajv, _options, context) => {
        if (context !== 'responseValidator') return ajv;
        shared ??= ajv;
        return shared;
      },
    });
    await api.init();
    return api;
  })();
  return backend;
}

/** Checks one response against a built validator; pure, so a deliberate drift can be shown failing. */
export function checkResponse(api: OpenAPIBackend, seen: SeenResponse): ContractVerdict {
  const [pathOnly = '', query = ''] = seen.path.split('?', 2);
  const operation = api.router.matchOperation({ method: seen.method.toLowerCase(), path: pathOnly, query, headers: {} });
  if (!operation?.operationId) return { checked: false, reason: 'no documented operation' };
  const { operationId } = operation;
  const declared = operation.responses?.[String(seen.status)] as { content?: Record<string, unknown> } | undefined;
  if (!declared) return { checked: true, operationId, problems: [`status ${seen.status} is not documented`] };
  const mediaType = (seen.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType && declared.content && !(mediaType in declared.content))
    return { checked: true, operationId, problems: [`media type ${mediaType} is not documented for ${seen.status}`] };
  if (mediaType !== 'application/json') return { checked: false, reason: `not JSON (${mediaType || 'no body'})` };
  const result = api.validateResponse(seen.body, operation, seen.status);
  const problems = (result.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''}`.trim());
  return { checked: true, operationId, problems };
}

/** Responses received and not yet checked. */
const received: SeenResponse[] = [];

/**
 * Records a response a test client received, to be checked when the test ends
 * (`checkReceivedResponses`, an `afterEach` of the harness). Checking later, not in the request,
 * keeps the validator's work (compiling an operation's schemas the first time, tens of
 * milliseconds) out of the timing a suite observes, such as a deletion job's step between two
 * requests. `AGENTLOOM_SKIP_RESPONSE_CONTRACT=1` switches the check off while debugging.
 */
export function recordResponse(seen: SeenResponse): void {
  if (process.env.AGENTLOOM_SKIP_RESPONSE_CONTRACT !== '1') received.push(seen);
}

/** Checks every response recorded since the last call; throws, failing the test, on any drift. */
export async function checkReceivedResponses(): Promise<void> {
  const failures: string[] = [];
  for (const seen of received.splice(0)) {
    const verdict = checkResponse(await contractOf(), seen);
    if (!verdict.checked) {
      contractStatistics.skipped += 1;
      continue;
    }
    contractStatistics.checked += 1;
    if (reportFile) appendFileSync(reportFile, `${verdict.operationId} ${seen.status}\n`);
    if (verdict.problems.length > 0)
      failures.push(
        `${seen.method} ${seen.path} (${verdict.operationId}, ${seen.status}): ${verdict.problems.join('; ')}. Body: ${JSON.stringify(seen.body).slice(0, 600)}`,
      );
  }
  if (failures.length > 0) throw new Error(`Responses break the OpenAPI document the platform serves:\n${failures.join('\n')}`);
}
