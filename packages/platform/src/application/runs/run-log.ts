import type { RunClient } from '@agentloom/sdk';

type RunPage = Awaited<ReturnType<RunClient['listRuns']>>;

/** Which runs of an app the run log lists, as the `GET /apps/{appId}/runs` query says. */
export interface RunLogQuery {
  status?: 'pending' | 'running' | 'succeeded' | 'failed' | 'stopped';
  sessionId?: string;
  limit?: number;
  cursor?: string;
  /** Debug runs of the draft: left out (the default), listed too, or listed alone. */
  debug: 'exclude' | 'include' | 'only';
}

/** How many store pages one request reads at most while it skips debug runs. */
const maxPagesRead = 10;
const defaultLimit = 50;

/**
 * One page of an app's run log, newest first. Debug runs carry `debug: 'true'` in their run
 * metadata (set by `startAppRun`), so `only` is a metadata match in the store. The store matches
 * metadata by equality only, so `exclude` reads pages and drops debug runs: each further read asks
 * for just the rows still missing, so the rows read stay one unbroken stretch of the log and the
 * store's cursor after the last of them is the right place to go on from. After `maxPagesRead`
 * reads the page is answered short (still with its cursor), so a log full of debug runs costs a
 * bounded amount per request.
 */
export async function runLogPage(runClient: RunClient, appId: string, query: RunLogQuery): Promise<RunPage> {
  const base = {
    metadata: (query.debug === 'only' ? { appId, debug: 'true' } : { appId }) as Record<string, string>,
    ...(query.status ? { status: query.status } : {}),
    ...(query.sessionId ? { sessionId: query.sessionId } : {}),
  };
  const limit = query.limit ?? defaultLimit;
  if (query.debug !== 'exclude') return runClient.listRuns({ ...base, limit, ...(query.cursor ? { cursor: query.cursor } : {}) });
  const items: RunPage['items'] = [];
  let cursor = query.cursor;
  for (let read = 0; read < maxPagesRead && items.length < limit; read += 1) {
    const page = await runClient.listRuns({ ...base, limit: limit - items.length, ...(cursor ? { cursor } : {}) });
    items.push(...page.items.filter((item) => item.metadata.debug !== 'true'));
    cursor = page.nextCursor;
    if (!cursor) return { items };
  }
  return cursor ? { items, nextCursor: cursor } : { items };
}
