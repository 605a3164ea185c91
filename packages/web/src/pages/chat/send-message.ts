import { ApiProblem, api, unwrap } from '../../api/index.js';
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
      body: { input: text, mode: 'async', ...(sessionId ? { sessionId } : {}) },
    }),
  );
  // An async start always answers 202 with the run's id (never the blocking or streaming shapes).
  const accepted = answer as { runId: string; sessionId: string };
  return { runId: accepted.runId, sessionId: accepted.sessionId };
}

/**
 * Sends the chat box's text (P-8.3): a supplement while the session's run is active, a new
 * question otherwise. When the run ended between the page's last look and the send (409
 * `run-not-active`), the text becomes the new question, and the answer says so.
 */
export async function sendMessage(input: {
  appId: string;
  sessionId: string | undefined;
  activeRunId: string | undefined;
  text: string;
}): Promise<SentChatMessage> {
  const { appId, sessionId, activeRunId, text } = input;
  if (activeRunId && sessionId) {
    try {
      const receipt = await unwrap(
        api.POST('/runs/{runId}/supplements', { params: { path: { runId: activeRunId } }, body: { text } }),
      );
      return { kind: 'supplement', runId: receipt.runId, sessionId };
    } catch (error) {
      if (!(error instanceof ApiProblem && error.code === 'run-not-active')) throw error;
      const started = await startRun(appId, sessionId, text);
      return { kind: 'run', ...started, note: 'The running question had just ended, so this is a new question.' };
    }
  }
  return { kind: 'run', ...(await startRun(appId, sessionId, text)) };
}

/** Asks the run to end (`POST /runs/:id/stop`); calls in flight settle first (P-8.7). */
export async function endRun(runId: string): Promise<void> {
  await unwrap(api.POST('/runs/{runId}/stop', { params: { path: { runId } } }));
}
