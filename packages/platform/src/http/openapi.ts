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

/** The error responses every authenticated route may give. */
export const standardErrors = {
  400: errorResponse('Malformed JSON, unknown fields or wrong types (`malformed-json`, `invalid-request`).'),
  401: errorResponse('Not signed in and no API key (`unauthenticated`).'),
  403: errorResponse('The role does not allow the action (`forbidden`, `csrf-token-invalid`).'),
  404: errorResponse('No such object in a space the caller can see (`not-found`).'),
  409: errorResponse('The object is in a state that refuses the change.'),
  413: errorResponse('The body is larger than the configured limit (`body-too-large`).'),
  422: errorResponse('The request is well formed but cannot be applied.'),
} as const;

type RouteInput = Omit<RouteConfig, 'responses'> & { responses: RouteConfig['responses'] };

/**
 * Declares a route with the standard error responses and both security schemes, so that the
 * OpenAPI document lists every failure a client must handle. `public: true` drops the security.
 */
export function apiRoute<const Route extends RouteInput>(route: Route & { public?: boolean }) {
  const { public: isPublic, ...rest } = route;
  return createRoute({
    ...rest,
    responses: { ...standardErrors, ...rest.responses },
    ...(isPublic ? { security: [] } : { security: [{ sessionCookie: [] }, { apiKey: [] }] }),
  } as unknown as Route);
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
