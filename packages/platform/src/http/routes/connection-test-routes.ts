import type { Failure } from '@agentloom/sdk';
import { z } from '@hono/zod-openapi';
import { readActiveKey } from '../../adapters/database/repositories/connection-repository.js';
import { buildLanguageModel, connectionSettingsSchema } from '../../adapters/models/index.js';
import { findEgressDenial } from '../../adapters/outbound/index.js';
import { ApiError } from '../api-error.js';
import { egressDeniedError } from '../egress-refusal.js';
import { apiRoute, createSubApp, idParameter, jsonBody, jsonResponse } from '../openapi.js';
import { loadConnection } from './connection-routes.js';

const connectionParameters = z.object({ spaceId: idParameter('spaceId'), connectionId: idParameter('connectionId') });

/** The most characters of the model's reply, and of a provider's own error message, a test answers. */
const maximumReplyCharacters = 200;

/** What the test says for each failure kind: fixed sentences, never the remote body (P-15.2). */
const failureSentences: Partial<Record<Failure['kind'], string>> = {
  connection: 'The provider could not be reached.',
  timeout: 'The provider did not answer in time.',
  stalled: 'The provider stopped answering.',
  authentication: 'The provider refused the key.',
  'rate-limited': 'The provider asked to slow down (rate limited).',
  'invalid-request': 'The provider refused the request: check the model id and the base URL.',
  server: 'The provider failed on its side.',
  'incomplete-output': 'The provider’s answer ended before it was complete.',
};

/** Printable text only, whitespace collapsed, the key removed, at most `maximumReplyCharacters`. */
function sanitise(text: string, apiKey: string | undefined): string {
  const redacted = apiKey ? text.replaceAll(apiKey, '[redacted]') : text;
  return redacted
    .replaceAll(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replaceAll(/\s+/g, ' ')
    .trim()
    .slice(0, maximumReplyCharacters);
}

/**
 * The answer for a failed test call (P-15.2: no remote body is echoed): the SDK's failure kind, a
 * fixed sentence for it, the HTTP status, the provider's error type or code when it is a plain
 * identifier, and — only when the provider answered an error JSON of its own (a status and an
 * error type the SDK read from it) — a sanitised excerpt of that error's message.
 */
function safeFailure(failure: Failure | undefined, apiKey: string | undefined) {
  if (!failure) return { kind: 'unknown', message: 'The call failed.' };
  const code = failure.code && /^[A-Za-z0-9_.:-]{1,64}$/.test(failure.code) ? failure.code : undefined;
  const fromProviderJson = failure.status !== undefined && code !== undefined;
  return {
    kind: failure.kind,
    message: failureSentences[failure.kind] ?? 'The call failed.',
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(code ? { code } : {}),
    ...(fromProviderJson
      ? { providerMessage: sanitise(failure.message.replace(new RegExp(`^${failure.status}\\s*`), ''), apiKey) }
      : {}),
  };
}

/**
 * `POST /spaces/:spaceId/model-connections/:connectionId/test`: one short request to the model
 * with the active key, through the outbound module (P-15.1). A destination the egress policy
 * refuses is a 422 `egress-denied` with its rule; any other failure is `ok: false` with a typed,
 * sanitised failure (never the provider's body, never the key).
 */
export function connectionTestRoutes() {
  const app = createSubApp();
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/spaces/{spaceId}/model-connections/{connectionId}/test',
      operationId: 'testModelConnection',
      tags: ['Model connections'],
      summary: 'Test a model connection',
      errors: { 409: ['no-active-key'], 422: ['egress-denied'] },
      description: 'A test call with the active key: one short request to the model.',
      request: {
        params: connectionParameters,
        body: jsonBody(z.strictObject({ modelId: z.string().min(1).max(200) }).openapi('TestModelConnection')),
      },
      responses: {
        200: jsonResponse(
          'The outcome (a failed call is `ok: false` with its typed failure kind and a fixed message, never the provider’s body or the key).',
          z
            .object({
              ok: z.boolean(),
              text: z.string().optional(),
              failure: z
                .object({
                  kind: z.string(),
                  message: z.string(),
                  status: z.number().optional(),
                  code: z.string().optional(),
                  providerMessage: z
                    .string()
                    .optional()
                    .openapi({ description: 'A sanitised excerpt of the provider’s own error JSON (at most 200 characters).' }),
                })
                .optional(),
            })
            .openapi('ConnectionTestResult'),
        ),
      },
    }),
    async (c) => {
      const row = await loadConnection(c, 'connections.manage');
      const { database, secretBox, outbound } = c.get('services');
      const apiKey = await readActiveKey(database, secretBox, row.id);
      const settings = connectionSettingsSchema.parse(JSON.parse(row.settings));
      if (!apiKey && row.provider !== 'offline-demo')
        throw new ApiError(409, 'no-active-key', 'The connection has no active key.');
      const model = buildLanguageModel({
        provider: row.provider,
        baseUrl: row.base_url,
        settings,
        modelId: c.req.valid('json').modelId,
        apiKey,
        fetch: outbound.fetch,
      });
      const signal = AbortSignal.timeout(30_000);
      let text = '';
      try {
        for await (const part of model.doStream(
          {
            system: 'Answer with one word.',
            messages: [{ role: 'user', content: 'ping' }],
            tools: [],
            settings: { maxOutputTokens: 16 },
          },
          { signal },
        )) {
          if (part.type === 'text-delta') text += part.text;
        }
        return c.json({ ok: true, text: sanitise(text, apiKey) }, 200);
      } catch (error) {
        const denial = findEgressDenial(error);
        if (denial) throw egressDeniedError(denial, 'baseUrl');
        return c.json({ ok: false, failure: safeFailure((error as { failure?: Failure }).failure, apiKey) }, 200);
      }
    },
  );
  return app;
}
