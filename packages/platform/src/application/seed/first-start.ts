import { randomBytes } from 'node:crypto';
import { newId } from '../../adapters/crypto/index.js';
import { createUser } from '../../adapters/identity/index.js';
import type { PlatformContext } from '../context.js';
import { demoConnectionName, seedDemoSpace } from './seed-demo-space.js';

/** What first start created, for the console message. */
export interface FirstStartOutcome {
  admin?: { email: string; password: string };
  /** The Demo space when this start created or completed it. */
  demo?: { spaceId: string; apps: number };
}

/**
 * The Demo space to fill, if any: none when one is already marked `demo` (seeded before: nothing
 * to do); the "Demo" space a start before issue 35 seeded (its offline connection tells it apart
 * from a space a person named so), to complete; a new one on an instance with no space yet.
 * An instance that has spaces but no Demo space gets none: its people chose what they have.
 */
async function demoSpaceToFill(
  services: PlatformContext,
  adminId: string,
): Promise<{ id: string; created: boolean } | undefined> {
  const { database, now } = services;
  const marked = await database.selectFrom('spaces').select('id').where('demo', '=', 1).executeTakeFirst();
  if (marked) return undefined;
  const earlier = await database
    .selectFrom('spaces')
    .innerJoin('model_connections', 'model_connections.space_id', 'spaces.id')
    .select('spaces.id')
    .where('spaces.name', '=', 'Demo')
    .where('spaces.state', '=', 'active')
    .where('model_connections.provider', '=', 'offline-demo')
    .where('model_connections.name', '=', demoConnectionName)
    .executeTakeFirst();
  if (earlier) return { id: earlier.id, created: false };
  const anySpace = await database.selectFrom('spaces').select('id').limit(1).executeTakeFirst();
  if (anySpace) return undefined;
  const id = newId('spc');
  const at = now().toISOString();
  await database.transaction().execute(async (transaction) => {
    await transaction
      .insertInto('spaces')
      .values({ id, name: 'Demo', state: 'active', created_by: adminId, created_at: at, demo: 0 })
      .execute();
    await transaction
      .insertInto('space_members')
      .values({ space_id: id, user_id: adminId, role: 'owner', created_at: at })
      .execute();
  });
  return { id, created: true };
}

/**
 * The embedded default's first start: with no users, an instance admin with a random password
 * (printed once by the caller, never logged); with `seedDemo`, the Demo space (issue 35) — an
 * offline scripted model, a demo HTTP tool and published demo apps of every kind — so that a
 * fresh clone shows what the platform does without any vendor key. Idempotent: the space is
 * marked `demo` only once every app is in it, so a start that died half-way completes it at the
 * next start, and a marked space is never seeded again.
 */
export async function prepareFirstStart(
  services: PlatformContext,
  options: { createAdmin: boolean; seedDemo: boolean },
): Promise<FirstStartOutcome> {
  const { database, now } = services;
  const outcome: FirstStartOutcome = {};
  const anyUser = await database.selectFrom('users').select('id').limit(1).executeTakeFirst();
  // The Demo space belongs to the first instance admin, never to whichever user a table scan
  // returns first (ids are random, so "any user" could be a plain member).
  const firstAdmin = await database
    .selectFrom('users')
    .select('id')
    .where('is_instance_admin', '=', 1)
    .where('status', '=', 'active')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  let adminId = firstAdmin?.id;
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
  if (!options.seedDemo || !adminId) return outcome;
  const space = await demoSpaceToFill(services, adminId);
  if (!space) return outcome;
  await seedDemoSpace(services, space.id, adminId);
  await database.updateTable('spaces').set({ demo: 1 }).where('id', '=', space.id).execute();
  const apps = await database.selectFrom('apps').select('id').where('space_id', '=', space.id).execute();
  outcome.demo = { spaceId: space.id, apps: apps.length };
  return outcome;
}
