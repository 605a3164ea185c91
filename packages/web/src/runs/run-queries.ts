import { useQuery } from '@tanstack/react-query';
import { api, queries, queryKeys, unwrap } from '../api/index.js';
import type { RunDescriptionView, RunLogEntry, SessionRunEntry } from './run-types.js';
import { isTerminal } from './run-types.js';

/** `GET /runs/:id/view`, refreshed every second while the run is not over. */
export function useRunView(runId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.runView(runId),
    enabled: Boolean(runId),
    queryFn: async () =>
      (await unwrap(api.GET('/runs/{runId}/view', { params: { path: { runId: runId ?? '' } } })))
        .view as unknown as RunDescriptionView,
    refetchInterval: (query) => (query.state.data && isTerminal(query.state.data.status) ? false : 1000),
  });
}

/** `GET /runs/:id`: the API status (with `stopping`) and the platform's stop cause. */
export function useRun(runId: string | undefined) {
  return useQuery({
    ...queries.run(runId),
    refetchInterval: (query) => (query.state.data && isTerminal(query.state.data.status) ? false : 1000),
  });
}

/** `GET /sessions/:id`: the session and its runs (the API lists them newest first; this answers oldest first). */
export function useSession(sessionId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.session(sessionId),
    enabled: Boolean(sessionId),
    queryFn: async () => {
      const answer = await unwrap(api.GET('/sessions/{sessionId}', { params: { path: { sessionId: sessionId ?? '' } } }));
      return { session: answer.session, runs: (answer.runs as unknown as SessionRunEntry[]).slice().reverse() };
    },
  });
}

/**
 * The app's run log page by page (`GET /apps/:appId/runs`), optionally of one status. Debug runs
 * of the draft are left out unless `withDebugRuns`: the log shows the app's real use.
 */
export async function fetchRunLog(appId: string, status: string, cursor?: string, withDebugRuns = false) {
  const query: {
    status?: 'pending' | 'running' | 'succeeded' | 'failed' | 'stopped';
    cursor?: string;
    limit: number;
    debug: 'exclude' | 'include';
  } = { limit: 50, debug: withDebugRuns ? 'include' : 'exclude' };
  if (status) query.status = status as NonNullable<typeof query.status>;
  if (cursor) query.cursor = cursor;
  const answer = await unwrap(api.GET('/apps/{appId}/runs', { params: { path: { appId }, query } }));
  return { runs: answer.runs as unknown as RunLogEntry[], nextCursor: answer.nextCursor };
}

/** The app's name and mode for page titles. */
export function useApp(appId: string) {
  return useQuery(queries.app(appId));
}
