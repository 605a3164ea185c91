import { expect } from 'vitest';
import type { TestClient } from './harness.js';

/** A space with two published demo agents and a router over them, built through the HTTP API. */
export interface RouterSpace {
  spaceId: string;
  flightAppId: string;
  weatherAppId: string;
  routerAppId: string;
}

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

/** Reads the draft's revision and saves `config` over it. */
export async function saveAppDraft(client: TestClient, appId: string, config: unknown) {
  const { draft } = await ok<{ draft: { revision: number } }>(client.request('GET', `/apps/${appId}/draft`), 200);
  return client.request('PUT', `/apps/${appId}/draft`, { config }, { 'if-match': `"${draft.revision}"` });
}

/** The router's catalog: book a flight (two required slots) and the weather; cancel and chit-chat rules. */
export function travelCatalog(flightAppId: string, weatherAppId: string) {
  return {
    formatVersion: 1,
    actions: [
      {
        ref: { kind: 'agent', id: flightAppId },
        description: 'Books a flight',
        examples: ['I need a plane ticket', '帮我订一张机票'],
        rules: { keywords: ['book a flight', '订机票'] },
        slots: [
          {
            name: 'destination',
            type: 'category',
            required: true,
            prompts: ['Where do you want to fly to?'],
            allowedValues: [
              { value: 'paris', synonyms: ['巴黎'] },
              { value: 'tokyo', synonyms: ['东京'] },
            ],
          },
          {
            name: 'date',
            type: 'category',
            required: true,
            prompts: ['Which day do you want to fly?'],
            allowedValues: [
              { value: 'today', synonyms: ['今天'] },
              { value: 'tomorrow', synonyms: ['明天'] },
            ],
          },
        ],
      },
      {
        ref: { kind: 'agent', id: weatherAppId },
        description: 'Tells the weather',
        examples: ['will it rain', '天气怎么样'],
        rules: { keywords: ['weather', '天气'] },
      },
    ],
    conversation: {
      cancel: { rules: { keywords: ['cancel', '取消'] } },
      chitChat: { rules: { keywords: ['hello', 'thanks', '你好'] } },
    },
    similarity: { threshold: 0.9 },
  };
}

/** A published react agent on the space's offline demo connection. */
async function publishedAgent(owner: TestClient, spaceId: string, connectionId: string, name: string): Promise<string> {
  const { app } = await ok<{ app: { id: string } }>(
    owner.request('POST', `/spaces/${spaceId}/apps`, { kind: 'agent', mode: 'react', name }),
    201,
  );
  await ok(
    saveAppDraft(owner, app.id, { model: { connectionId, modelId: 'demo-1' }, prompt: { text: `You are the ${name}.` } }),
    200,
  );
  await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: 'first' }), 201);
  return app.id;
}

/**
 * Builds the space as its owner: an offline demo connection, two published agents (flights,
 * weather), and a router whose draft routes to them (published unless `publish` is false).
 */
export async function buildRouterSpace(owner: TestClient, name: string, publish = true): Promise<RouterSpace> {
  const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name }), 201);
  const { connection } = await ok<{ connection: { id: string } }>(
    owner.request('POST', `/spaces/${space.id}/model-connections`, {
      name: 'Demo',
      provider: 'offline-demo',
      settings: { demoFallback: 'Done.' },
      models: [{ modelId: 'demo-1' }],
    }),
    201,
  );
  const flightAppId = await publishedAgent(owner, space.id, connection.id, 'Flight desk');
  const weatherAppId = await publishedAgent(owner, space.id, connection.id, 'Weather desk');
  const { app } = await ok<{ app: { id: string } }>(
    owner.request('POST', `/spaces/${space.id}/apps`, { kind: 'router', name: 'Travel router' }),
    201,
  );
  await ok(saveAppDraft(owner, app.id, travelCatalog(flightAppId, weatherAppId)), 200);
  if (publish) await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: 'first' }), 201);
  return { spaceId: space.id, flightAppId, weatherAppId, routerAppId: app.id };
}
