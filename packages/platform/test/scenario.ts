import { expect } from 'vitest';
import type { TestClient } from './harness.js';

/** Credential values the scenario stores; no API response or log line may ever contain them. */
export const secretValues = {
  modelKey: 'sk-test-MODEL-KEY-5f1c9a7e2b4d',
  rotatedModelKey: 'sk-test-ROTATED-KEY-8e3b1d6a9c0f',
  toolToken: 'tok-TOOL-SECRET-3a9d7c1e5b2f',
} as const;

/** Everything one space holds after `buildSpace`. */
export interface SpaceFixture {
  spaceId: string;
  demoConnectionId: string;
  vendorConnectionId: string;
  vendorKeyId: string;
  secretId: string;
  promptId: string;
  toolId: string;
  skillId: string;
  appId: string;
  spaceKeyId: string;
  spaceKeySecret: string;
  appKeyId: string;
  appKeySecret: string;
}

const skillFile = [
  '---',
  'name: notes-helper',
  'description: Use when the user asks about their notes; explains how to summarise them.',
  '---',
  '',
  '# Notes helper',
  'Summarise notes in three bullet points.',
  '',
].join('\n');

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

/**
 * Builds a complete space through the HTTP API as its owner: an offline demo connection and a
 * vendor connection with a key, a secret, a prompt, an HTTP tool using the secret, a skill, a
 * ReAct agent whose draft uses all of them, a release, a space key and an app key.
 */
export async function buildSpace(owner: TestClient, name: string): Promise<SpaceFixture> {
  const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name }), 201);
  const base = `/spaces/${space.id}`;
  const demo = await ok<{ connection: { id: string } }>(
    owner.request('POST', `${base}/model-connections`, {
      name: 'Demo',
      provider: 'offline-demo',
      settings: {
        demoReplies: [{ whenInputContains: 'agentloom', reply: 'AgentLoom keeps runs alive across crashes.' }],
        demoFallback: 'No idea.',
      },
      models: [{ modelId: 'demo-1' }],
    }),
    201,
  );
  const vendor = await ok<{ connection: { id: string; keys: { id: string }[] } }>(
    owner.request('POST', `${base}/model-connections`, {
      name: 'Vendor',
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      key: { label: 'main', value: secretValues.modelKey },
      models: [{ modelId: 'vendor-model', contextWindow: 128000 }],
    }),
    201,
  );
  const { secret } = await ok<{ secret: { id: string } }>(
    owner.request('POST', `${base}/secrets`, { name: 'TOOL_TOKEN', value: secretValues.toolToken }),
    201,
  );
  const prompt = await ok<{ resource: { id: string } }>(
    owner.request('POST', `${base}/resources`, {
      type: 'prompt',
      name: 'Helper prompt',
      content: { text: 'You are a helpful agent, version one.' },
    }),
    201,
  );
  const toolResource = await ok<{ resource: { id: string } }>(
    owner.request('POST', `${base}/resources`, {
      type: 'tool',
      name: 'lookup',
      content: {
        kind: 'http',
        description: 'Looks something up.',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        request: { method: 'POST', url: 'http://127.0.0.1:9/lookup', headers: { authorization: { secret: 'TOOL_TOKEN' } } },
      },
    }),
    201,
  );
  const skill = await ok<{ resource: { id: string } }>(
    owner.request('POST', `${base}/resources`, { type: 'skill', name: 'notes-helper' }),
    201,
  );
  await ok(
    owner.request('POST', `${base}/resources/${skill.resource.id}/versions`, {
      files: [{ path: 'SKILL.md', contentBase64: Buffer.from(skillFile).toString('base64') }],
    }),
    201,
  );
  const { app } = await ok<{ app: { id: string } }>(
    owner.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name: `${name} agent` }),
    201,
  );
  const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${app.id}/draft`), 200);
  await ok(
    owner.request(
      'PUT',
      `/apps/${app.id}/draft`,
      {
        config: {
          model: { connectionId: demo.connection.id, modelId: 'demo-1' },
          prompt: { resourceId: prompt.resource.id },
          capabilities: { builtIn: ['workspace-files'], tools: [toolResource.resource.id], skills: [skill.resource.id] },
        },
      },
      { 'if-match': `"${draft.revision}"` },
    ),
    200,
  );
  await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: 'first' }), 201);
  const spaceKey = await ok<{ key: { id: string }; secret: string }>(
    owner.request('POST', `${base}/api-keys`, { name: 'ci' }),
    201,
  );
  const appKey = await ok<{ key: { id: string }; secret: string }>(
    owner.request('POST', `/apps/${app.id}/api-keys`, { name: 'website' }),
    201,
  );
  return {
    spaceId: space.id,
    demoConnectionId: demo.connection.id,
    vendorConnectionId: vendor.connection.id,
    vendorKeyId: vendor.connection.keys[0]?.id ?? '',
    secretId: secret.id,
    promptId: prompt.resource.id,
    toolId: toolResource.resource.id,
    skillId: skill.resource.id,
    appId: app.id,
    spaceKeyId: spaceKey.key.id,
    spaceKeySecret: spaceKey.secret,
    appKeyId: appKey.key.id,
    appKeySecret: appKey.secret,
  };
}
