import { randomUUID } from 'node:crypto';
import { InvalidRunRequestError, RunNotActiveError } from '@agentloom/sdk';
import { hashJson } from '../../adapters/database/repositories/resource-repository.js';
import type { AppRow, SessionRow } from '../../adapters/database/schema.js';
import { ValidationError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';
import { assertAppRunnable, insertRun } from './create-run.js';
import { activeRunOf, assertAppActive, lockSession } from './run-session.js';

/** What the chat box did with a message (P-8.3): it supplemented the active run, or started a new one. */
export type SessionMessageOutcome =
  | { kind: 'supplement'; runId: string; supplementId: string; sessionId: string; replayed: boolean }
  | { kind: 'run'; runId: string; sessionId: string; replayed: boolean };

/**
 * The chat box (P-8.3, PLATFORM.md §4.4): text typed while the session's run is active (queued or
 * running) is a supplement of that run; otherwise it is a new question, a new run of the app in
 * the same session. The decision is taken with the session locked (PostgreSQL `FOR UPDATE`;
 * SQLite transactions run one at a time), so two messages never both start a run. If the run
 * ends between the check and the supplement, the SDK refuses the supplement
 * (`RunNotActiveError`) and the text becomes a new run instead: never lost, never both.
 * With an `Idempotency-Key`, the same key and text answer the first outcome; another text is a
 * a validation error `idempotency-key-reused`. A concurrent duplicate waits on the session lock for the first
 * one's commit and then answers its outcome, so the text is never supplemented twice.
 */
export async function postSessionMessage(
  services: PlatformContext,
  app: AppRow,
  session: SessionRow,
  actor: string,
  text: string,
  idempotencyKey: string | undefined,
): Promise<SessionMessageOutcome> {
  assertAppRunnable(app);
  if (app.kind !== 'agent')
    throw new ValidationError('not-a-chat-app', 'A workflow takes no chat messages; start a run with POST /apps/:appId/runs.');
  const requestHash = hashJson({ text });
  const sessionId = session.id;
  const outcome = await services.database.transaction().execute(async (transaction): Promise<SessionMessageOutcome> => {
    // The lock comes first: every message of the session waits here for the one before it to
    // commit, so the key lookup below sees a concurrent duplicate's outcome.
    await lockSession(transaction, services.dialect, app, sessionId);
    await assertAppActive(transaction, services.dialect, app.id);
    if (idempotencyKey !== undefined) {
      const first = await transaction
        .selectFrom('message_keys')
        .selectAll()
        .where('principal', '=', actor)
        .where('session_id', '=', sessionId)
        .where('key', '=', idempotencyKey)
        .executeTakeFirst();
      if (first) {
        if (first.request_hash !== requestHash)
          throw new ValidationError('idempotency-key-reused', 'This Idempotency-Key was used with another message.', {
            runId: first.run_id,
          });
        return first.kind === 'supplement' && first.supplement_id
          ? { kind: 'supplement', runId: first.run_id, supplementId: first.supplement_id, sessionId, replayed: true }
          : { kind: 'run', runId: first.run_id, sessionId, replayed: true };
      }
    }
    let outcome: SessionMessageOutcome | undefined;
    const active = await activeRunOf(transaction, services, sessionId);
    if (active) {
      try {
        const receipt = await services.runClient.supplement(active, text);
        outcome = { kind: 'supplement', runId: active, supplementId: receipt.supplementId, sessionId, replayed: false };
      } catch (error) {
        if (error instanceof InvalidRunRequestError) throw new ValidationError('invalid-run-request', error.message);
        // The run ended after the check: the text is a new question (below).
        if (!(error instanceof RunNotActiveError)) throw error;
      }
    }
    if (!outcome) {
      const runId = `run_${randomUUID()}`;
      await insertRun(transaction, services, app, actor, { sessionId, input: text }, runId, false);
      outcome = { kind: 'run', runId, sessionId, replayed: false };
    }
    if (idempotencyKey !== undefined) {
      await transaction
        .insertInto('message_keys')
        .values({
          principal: actor,
          session_id: sessionId,
          key: idempotencyKey,
          request_hash: requestHash,
          kind: outcome.kind,
          run_id: outcome.runId,
          supplement_id: outcome.kind === 'supplement' ? outcome.supplementId : null,
          created_at: services.now().toISOString(),
        })
        .execute();
    }
    return outcome;
  });
  // A new run committed: this process's workers claim it now (issue 34).
  if (outcome.kind === 'run' && !outcome.replayed) services.dispatcher.announce();
  return outcome;
}
