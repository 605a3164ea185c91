import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { newId } from '../../adapters/crypto/index.js';
import { createUser } from '../../adapters/identity/index.js';
import type { AgentDraft } from '../../domain/index.js';
import { agentDraftSchemaVersion } from '../../domain/index.js';
import type { PlatformContext } from '../context.js';
import { publishAgentRelease } from '../releases/publish-release.js';

/** What first start created, for the console message. */
export interface FirstStartOutcome {
  admin?: { email: string; password: string };
  demo?: { spaceId: string; appId: string; releaseVersion: number };
}

/** The offline demo model's answers. */
export const demoReplies = [
  {
    whenInputContains: 'what is agentloom',
    reply:
      'AgentLoom builds agents whose runs survive a crash: every step is journaled, and another machine continues the same run.',
  },
  { whenInputContains: 'hello', reply: 'Hello! I am the AgentLoom demo agent, answering offline.' },
];

/**
 * The embedded default's first start: with no users, an instance admin with a random password
 * (printed once by the caller, never logged); with `seedDemo` and no spaces, a "Demo" space, an
 * offline demo model connection and a published demo agent, so that a fresh clone has something
 * that runs without any vendor key.
 */
export async function prepareFirstStart(
  services: PlatformContext,
  options: { createAdmin: boolean; seedDemo: boolean },
): Promise<FirstStartOutcome> {
  const { database, now } = services;
  const outcome: FirstStartOutcome = {};
  const anyUser = await database.selectFrom('users').select('id').limit(1).executeTakeFirst();
  let adminId = anyUser?.id;
  if (!anyUser && options.createAdmin) {
    const password = randomBytes(12).toString('base64url');
    const admin = await createUser(database, {
      email: 'admin@localhost',
      displayName: 'Administrator',
      password,
      isInstanceAdmin: true,
      now: now(),
    });
    adminId = admin.id;
    outcome.admin = { email: admin.email, password };
  }
  const anySpace = await database.selectFrom('spaces').select('id').limit(1).executeTakeFirst();
  if (anySpace || !options.seedDemo || !adminId) return outcome;

  const at = now().toISOString();
  const spaceId = newId('spc');
  const connectionId = newId('mc');
  const appId = newId('app');
  const draft: AgentDraft = {
    model: { connectionId, modelId: 'offline-demo-1' },
    prompt: { text: 'You are the AgentLoom demo agent. Answer briefly.' },
    variables: {},
    capabilities: { builtIn: [], tools: [], skills: [], mcpServers: [], remoteAgents: [] },
    executors: [],
    hooks: [],
    execution: {},
    context: {},
    environment: { persistentSandbox: false },
  };
  const fileRoot = path.join(services.config.dataDirectory, 'spaces', spaceId, 'agents', appId);
  await mkdir(path.join(fileRoot, 'wiki'), { recursive: true });
  await mkdir(path.join(fileRoot, 'files'), { recursive: true });
  await database.transaction().execute(async (transaction) => {
    await transaction
      .insertInto('spaces')
      .values({ id: spaceId, name: 'Demo', state: 'active', created_by: adminId, created_at: at })
      .execute();
    await transaction
      .insertInto('space_members')
      .values({ space_id: spaceId, user_id: adminId, role: 'owner', created_at: at })
      .execute();
    await transaction
      .insertInto('model_connections')
      .values({
        id: connectionId,
        space_id: spaceId,
        name: 'Offline demo model',
        provider: 'offline-demo',
        base_url: null,
        settings: JSON.stringify({
          demoReplies,
          demoFallback: 'I am the offline demo model. Add a real model connection to get real answers.',
        }),
        state: 'active',
        created_by: adminId,
        updated_at: at,
      })
      .execute();
    await transaction
      .insertInto('models')
      .values({
        connection_id: connectionId,
        model_id: 'offline-demo-1',
        context_window: 32_000,
        supports_thinking: 0,
        enabled: 1,
      })
      .execute();
    await transaction
      .insertInto('apps')
      .values({
        id: appId,
        space_id: spaceId,
        kind: 'agent',
        name: 'Demo agent',
        description: 'Answers from the offline demo model.',
        mode: 'react',
        file_root: fileRoot,
        state: 'active',
        latest_release_id: null,
        created_by: adminId,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await transaction
      .insertInto('app_drafts')
      .values({
        app_id: appId,
        config: JSON.stringify(draft),
        schema_version: agentDraftSchemaVersion,
        revision: 1,
        updated_by: adminId,
        updated_at: at,
      })
      .execute();
  });
  const app = await database.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirstOrThrow();
  const release = await publishAgentRelease(services, app, adminId, 'Seeded demo release.');
  outcome.demo = { spaceId, appId, releaseVersion: release.version };
  return outcome;
}
