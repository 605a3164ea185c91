import { randomUUID } from 'node:crypto';
import type { UnderstandResult } from '@agentloom/intent';
import { RunNotActiveError } from '@agentloom/sdk';
import { findApp } from '../../adapters/database/repositories/app-repository.js';
import {
  findRouterSession,
  insertRouterSession,
  insertRouterTurn,
  listRouterTurns,
  saveRouterSessionTurn,
} from '../../adapters/database/repositories/router-repository.js';
import type { AppRow, RouterSessionRow } from '../../adapters/database/schema.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import {
  planRouterTurn,
  type RouterReply,
  type RouterSessionState,
  type RouterStep,
  settleRouterState,
} from '../../domain/router-turn.js';
import type { PlatformContext } from '../context.js';
import { startAppRun } from '../runs/create-run.js';
import { supplementRun } from '../runs/run-service.js';
import { stopRun } from '../runs/stop-runs.js';
import { assertRouter, publishedCatalog, refuseNonRouter, understandUtterance } from './router-understanding.js';

/** One turn of a router conversation as the API answers it. */
export interface RouterTurn {
  sessionId: string;
  /** 1 for the first turn of the session. */
  turn: number;
  commands: UnderstandResult['commands'];
  decidedBy: UnderstandResult['decidedBy'];
  trace: UnderstandResult['trace'];
  rejected: UnderstandResult['rejected'];
  reply: RouterReply;
  /** What the platform did: the runs it started, supplemented or stopped. */
  effects: (
    | { type: 'started'; appId: string; runId: string; sessionId: string }
    | { type: 'supplemented' | 'stopped'; runId: string }
  )[];
  /** The dialogue state kept for the next turn. */
  state: RouterSessionState;
}

/** The session the message continues (only its starter may), or a new one. */
async function sessionOf(
  services: Pick<PlatformContext, 'database' | 'now'>,
  app: AppRow,
  actor: string,
  sessionId: string | undefined,
): Promise<RouterSessionRow> {
  if (sessionId !== undefined) {
    const row = await findRouterSession(services.database, app.id, sessionId);
    if (!row || row.created_by !== actor) throw new NotFoundError('not-found', 'The router session was not found.');
    return row;
  }
  const at = services.now().toISOString();
  const row: RouterSessionRow = {
    id: `rses_${randomUUID()}`,
    app_id: app.id,
    space_id: app.space_id,
    created_by: actor,
    state: JSON.stringify({ dialogue: {} } satisfies RouterSessionState),
    turns: 0,
    created_at: at,
    updated_at: at,
  };
  await insertRouterSession(services.database, row);
  return row;
}

/** Whether a run is still queued or running in the SDK store. */
async function isActive(services: Pick<PlatformContext, 'runStore'>, runId: string): Promise<boolean> {
  const stored = await services.runStore.getRun(runId);
  return stored?.status === 'pending' || stored?.status === 'running';
}

/** The app a step names, in the router's space, or a conflict `router-target-unavailable`. */
async function targetApp(services: Pick<PlatformContext, 'database'>, router: AppRow, appId: string): Promise<AppRow> {
  const app = await findApp(services.database, appId);
  if (!app || app.space_id !== router.space_id)
    throw new ConflictError('router-target-unavailable', 'The app this action routes to no longer exists.', { appId });
  return app;
}

/**
 * One user message to a router (issue 33, N-14: the platform is the host). Runs `understand` on
 * the router's newest release with the session's dialogue state, then carries out the planned
 * steps through the existing use cases: a cancel stops the router's run (durable stop, D-P10); a
 * complete action starts its app's run (`startAppRun`, the slots as input, a new session of that
 * app); a later utterance while that run is active is its supplement; a missing slot is asked
 * with its prompt; chit-chat and the rest start nothing. The state is saved over the turn count
 * read, so two concurrent turns of one session conflict (`turn-conflict`) instead of one
 * overwriting the other.
 */
export async function postRouterMessage(
  services: PlatformContext,
  app: AppRow,
  actor: string,
  message: { text: string; sessionId?: string | undefined },
  visibility: { seesAllSessions: boolean },
): Promise<RouterTurn> {
  assertRouter(app);
  const catalog = await publishedCatalog(services, app);
  const session = await sessionOf(services, app, actor, message.sessionId);
  const stored = JSON.parse(session.state) as RouterSessionState;
  const settled = settleRouterState(stored, stored.run ? await isActive(services, stored.run.runId) : false);
  const { result, state: dialogue } = await understandUtterance(catalog, message.text, settled.dialogue);
  const plan = planRouterTurn({ ...settled, dialogue }, result.commands, message.text, catalog);
  const effects: RouterTurn['effects'] = [];
  let { state } = plan;
  let { reply } = plan;
  for (const step of plan.steps) {
    const outcome = await carryOut(services, app, actor, step, visibility);
    if (outcome.effect) effects.push(outcome.effect);
    if (outcome.run) state = { ...state, run: outcome.run };
    if (outcome.ended) {
      // The run ended between the check and the supplement: the action is over, the text was not passed on.
      state = { dialogue: {} };
      reply = { kind: 'cannot-handle', text: 'The run had already finished; ask again to start a new one.' };
    }
  }
  const turn: RouterTurn = { sessionId: session.id, turn: session.turns + 1, ...result, reply, effects, state };
  const at = services.now().toISOString();
  await services.database.transaction().execute(async (transaction) => {
    if (!(await saveRouterSessionTurn(transaction, session.id, session.turns, JSON.stringify(state), at)))
      throw new ConflictError('turn-conflict', 'Another message of this session was handled at the same time; send it again.');
    await insertRouterTurn(transaction, {
      sessionId: session.id,
      turn: turn.turn,
      text: message.text,
      result: JSON.stringify(turn),
      at,
    });
  });
  return turn;
}

/** A router session as its starter reads it back: the state kept and the transcript. */
export interface RouterSessionView {
  sessionId: string;
  state: RouterSessionState;
  turns: { text: string; result: RouterTurn; createdAt: string }[];
}

/** Reads a router session of its starter (anyone else: not found) with every turn, oldest first. */
export async function readRouterSession(
  services: Pick<PlatformContext, 'database'>,
  app: AppRow,
  actor: string,
  sessionId: string,
): Promise<RouterSessionView> {
  refuseNonRouter(app, 'only a router has router sessions.');
  const row = await findRouterSession(services.database, app.id, sessionId);
  if (!row || row.created_by !== actor) throw new NotFoundError('not-found', 'The router session was not found.');
  const turns = await listRouterTurns(services.database, row.id);
  return {
    sessionId: row.id,
    state: JSON.parse(row.state) as RouterSessionState,
    turns: turns.map((turn) => ({ text: turn.text, result: JSON.parse(turn.result) as RouterTurn, createdAt: turn.created_at })),
  };
}

async function carryOut(
  services: PlatformContext,
  router: AppRow,
  actor: string,
  step: RouterStep,
  visibility: { seesAllSessions: boolean },
): Promise<{ effect?: RouterTurn['effects'][number]; run?: RouterSessionState['run']; ended?: true }> {
  if (step.type === 'stop') {
    await stopRun(services, step.runId, 'user', actor);
    return { effect: { type: 'stopped', runId: step.runId } };
  }
  if (step.type === 'supplement') {
    try {
      await supplementRun(services, await targetApp(services, router, step.appId), step.runId, step.text);
    } catch (error) {
      if (error instanceof RunNotActiveError) return { ended: true };
      throw error;
    }
    return { effect: { type: 'supplemented', runId: step.runId } };
  }
  const app = await targetApp(services, router, step.action.id);
  const started = await startAppRun(services, app, actor, { input: step.input }, undefined, visibility);
  return {
    effect: { type: 'started', appId: app.id, runId: started.runId, sessionId: started.sessionId },
    run: { appId: app.id, runId: started.runId, action: step.action },
  };
}
