import { createRoute, OpenAPIHono, type RouteConfig, z } from '@hono/zod-openapi';
import { ApiError } from './api-error.js';
import type { PlatformEnvironment } from './services.js';

/** The error body of every 4xx and 5xx response. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'not-found' }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  .openapi('Error');

/** An error response declaration (the `Error` body). */
export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorBodySchema } },
});

/** The statuses an operation may list stable error codes under. */
export type ErrorStatusWithCodes = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 422 | 428 | 429 | 502 | 504;

/**
 * The refusals every authenticated route may give, each with the codes any route answers it with
 * (authentication, CSRF, validation and the body limits come before the handler).
 */
const standardRefusals: Readonly<Partial<Record<ErrorStatusWithCodes, { text: string; codes: readonly string[] }>>> = {
  400: { text: 'Malformed JSON, unknown fields or wrong types.', codes: ['malformed-json', 'invalid-request'] },
  401: { text: 'Not signed in and no API key.', codes: ['unauthenticated'] },
  403: { text: 'The role or the credential does not allow the action.', codes: ['forbidden', 'csrf-token-invalid'] },
  404: { text: 'No such object in a space the caller can see.', codes: ['not-found'] },
  409: { text: 'The object is in a state that refuses the change.', codes: [] },
  413: { text: 'The body is larger than the configured limit.', codes: ['body-too-large'] },
  422: { text: 'The request is well formed but cannot be applied.', codes: ['json-too-deep'] },
};

/** What other statuses mean, for codes an operation lists under them. */
const otherRefusals: Readonly<Record<number, string>> = {
  412: 'The `If-Match` revision is no longer the current one.',
  428: 'The change needs an `If-Match` header.',
  429: 'Too many attempts; wait for `Retry-After`.',
  502: 'The upstream server could not be reached or refused.',
  504: 'The upstream server did not answer in time.',
};

/** An error response whose description lists the stable `error.code`s a client can switch on. */
function refusal(text: string, codes: readonly string[]) {
  const list = [...new Set(codes)].map((code) => `\`${code}\``).join(', ');
  return errorResponse(list ? `${text} Codes: ${list}.` : text);
}

/** The standard error responses, with an operation's own codes added to their statuses. */
export function errorResponses(extra: Partial<Record<ErrorStatusWithCodes, readonly string[]>> = {}) {
  const responses: Record<string, ReturnType<typeof errorResponse>> = {};
  for (const [status, { text, codes }] of Object.entries(standardRefusals))
    responses[status] = refusal(text, [...codes, ...(extra[Number(status) as ErrorStatusWithCodes] ?? [])]);
  for (const [status, codes] of Object.entries(extra))
    if (!(status in responses)) responses[status] = refusal(otherRefusals[Number(status)] ?? 'Refused.', codes ?? []);
  return responses;
}

/** The error responses every authenticated route may give. */
export const standardErrors = errorResponses();

/** Every operation names itself for generators: a camelCase id, one tag (its resource) and a summary. */
interface OperationNames {
  operationId: string;
  tags: [string];
  summary: string;
  description?: string;
}

type RouteInput = Omit<RouteConfig, 'responses'> & { responses: RouteConfig['responses'] } & OperationNames;

/**
 * Cookie sessions must echo their CSRF token in `X-CSRF-Token` on every change (the `csrfToken`
 * scheme, required together with the cookie); API keys need nothing else.
 */
const readSecurity = [{ sessionCookie: [] }, { apiKey: [] }];
const changeSecurity = [{ sessionCookie: [], csrfToken: [] }, { apiKey: [] }];

/**
 * Declares a route with the standard error responses (plus the stable codes the operation itself
 * answers, by status, in `errors`) and its security, so that the OpenAPI document lists every
 * failure a client must handle. `public: true` drops the security.
 */
export function apiRoute<const Route extends RouteInput>(
  route: Route & { public?: boolean; errors?: Partial<Record<ErrorStatusWithCodes, readonly string[]>> },
) {
  const { public: isPublic, errors, ...rest } = route;
  // A route with a body refuses another media type with 415 (the app's error handler).
  const mediaType = rest.request?.body ? { 415: refusal('The body is not JSON.', ['unsupported-media-type']) } : {};
  return createRoute({
    ...rest,
    responses: { ...errorResponses(errors), ...mediaType, ...rest.responses },
    security: isPublic ? [] : rest.method === 'get' ? readSecurity : changeSecurity,
  } as unknown as Route);
}

/** The tags of the document, one per resource, in the order a reader meets them. */
export const apiTags = [
  { name: 'Authentication', description: 'Console sign-in with a cookie session and its CSRF token.' },
  { name: 'Users', description: 'Local accounts of the instance (instance admins).' },
  { name: 'Spaces', description: 'Spaces: the unit of sharing and permissions.' },
  { name: 'Members', description: 'The members of a space and their roles.' },
  { name: 'API keys', description: 'App keys, space keys and the keys a user made.' },
  { name: 'Secrets', description: 'Space secrets: values referenced by resources, never returned.' },
  { name: 'Model connections', description: 'Model providers, their keys and model catalogues.' },
  { name: 'Resources', description: 'Shared, versioned resources: tools, MCP servers, hooks, skills.' },
  { name: 'Apps', description: 'Agent and workflow apps, and their deletion.' },
  { name: 'Drafts', description: 'The one draft of an app, saved with optimistic concurrency.' },
  { name: 'Releases', description: 'Immutable releases published from a draft.' },
  { name: 'Runs', description: 'Starting, following, stopping and steering runs.' },
  { name: 'Sessions', description: 'Sessions of an app: their runs, chat messages and history.' },
  { name: 'Files', description: 'An agent’s wiki and business files, and a session’s persistent work files.' },
  { name: 'Webhooks', description: 'Run completion webhooks: the signing secret and deliveries.' },
  { name: 'Workers', description: 'Run workers of the instance (instance admins).' },
  { name: 'Demo', description: 'The offline demo: the demo endpoint and "Crash the worker" (issue 35).' },
];

/**
 * The security schemes: the console's session cookie (with the CSRF token header it needs on
 * changes) and bearer API keys.
 */
export function registerSecuritySchemes(api: OpenAPIHono<PlatformEnvironment>): void {
  const registry = api.openAPIRegistry;
  registry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'agentloom_session',
    description: 'The console session, set by `POST /auth/login` (`Set-Cookie`).',
  });
  registry.registerComponent('securitySchemes', 'csrfToken', {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description:
      'The `csrfToken` `POST /auth/login` returned: required with the session cookie on every change (403 `csrf-token-invalid` without it); API keys do not send it.',
  });
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An app or space API key.',
  });
}

/** JSON body declaration; `required` makes a missing or non-JSON body a 400/415, never `{}`. */
export function jsonBody<Schema extends z.ZodType>(schema: Schema) {
  return { required: true, content: { 'application/json': { schema } } } as const;
}

/** JSON response declaration. */
export function jsonResponse<Schema extends z.ZodType>(description: string, schema: Schema) {
  return { description, content: { 'application/json': { schema } } } as const;
}

/**
 * A sub-app whose validation failures become typed 400s listing every problem (never a
 * half-applied change: validation runs before the handler touches the database).
 */
export function createSubApp(): OpenAPIHono<PlatformEnvironment> {
  return new OpenAPIHono<PlatformEnvironment>({
    defaultHook: (result) => {
      if (!result.success) {
        const issues = result.error.issues.map((issue) => ({
          path: issue.path.map(String).join('.'),
          code: issue.code,
          message: issue.message,
        }));
        throw new ApiError(400, 'invalid-request', 'The request does not match its schema.', { issues });
      }
    },
  });
}

/** Path parameter schema of an id. */
export const idParameter = (name: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name, in: 'path' } });

/** The `{ ok: true }` body of a change that returns nothing else. */
export const okSchema = z.object({ ok: z.literal(true) }).openapi('Ok');
