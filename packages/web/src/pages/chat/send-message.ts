import { api, unwrap } from '../../api/index.js';
import type { SentMessage } from './composer.js';

/** What the chat box's message became: a supplement of the active run, or a new run (question). */
export interface SentChatMessage extends SentMessage {
  runId: string;
  sessionId: string;
}

async function startRun(appId: string, sessionId: string | undefined, text: string) {
  const answer = await unwrap(
    api.POST('/apps/{appId}/runs', {
      params: { path: { appId }, query: {}, header: {} },
      body: { input: text, mode: 'async', release: 'latest', ...(sessionId ? { sessionId } : {}) },
    }),
  );
  // An async start always answers 202 with the run's id (never the blocking or streaming shapes).
  const accepted = answer as { runId: string; sessionId: string };
  return { runId: accepted.runId, sessionId: accepted.sessionId };
}

/**
 * Sends the chat box's text (P-8.3). In a session, `POST /sessions/:id/messages` decides on the
 * server: a supplement of the active run, or a new question (also when the run ended between the
 * page's last look and the send); the answer says which, and the page shows it. The first
 * question of a new conversation starts a run, which creates the session.
 */
export async function sendMessage(input: {
  appId: string;
  sessionId: string | undefined;
  activeRunId: string | undefined;
  text: string;
}): Promise<SentChatMessage> {
  const { appId, sessionId, activeRunId, text } = input;
  if (!sessionId) return { kind: 'run', ...(await startRun(appId, undefined, text)) };
  const accepted = await unwrap(
    api.POST('/sessions/{sessionId}/messages', { params: { path: { sessionId }, header: {} }, body: { text } }),
  );
  if (accepted.kind === 'supplement') return { kind: 'supplement', runId: accepted.runId, sessionId: accepted.sessionId };
  return {
    kind: 'run',
    runId: accepted.runId,
    sessionId: accepted.sessionId,
    ...(activeRunId ? { questionEndedFirst: true } : {}),
  };
}

/** Asks the run to end (`POST /runs/:id/stop`); calls in flight settle first (P-8.7). */
export async function endRun(runId: string): Promise<void> {
  await unwrap(api.POST('/runs/{runId}/stop', { params: { path: { runId } } }));
}
