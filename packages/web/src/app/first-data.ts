import type { QueryClient } from '@tanstack/react-query';
import { queries } from '../api/index.js';
import { meQuery } from '../session/index.js';

const kinds = { agents: 'agent', workflows: 'workflow', routers: 'router' } as const;

/**
 * Asks for the first data of the page being opened as soon as the main bundle runs, in parallel
 * with the user (`/auth/me`) and the page's chunk, instead of after the frame has the user and the
 * page has mounted (issue 35: no load waterfall): a list page's apps, an app page's app, an
 * editor's draft, and the lists the workflow editor names its bindings from. Same query keys and requests as the pages, so the pages find them in the cache.
 * On the sign-in page nothing is asked.
 */
export function prefetchFirstData(queryClient: QueryClient, pathname: string): void {
  if (pathname.startsWith('/sign-in')) return;
  void queryClient.prefetchQuery(meQuery);
  const [, spaces, spaceId, section, appId, sub] = pathname.replace(/\/$/, '').split('/');
  if (spaces !== 'spaces' || !spaceId || !section || !(section in kinds)) return;
  const kind = kinds[section as keyof typeof kinds];
  if (!appId) {
    void queryClient.prefetchQuery(queries.apps(spaceId, kind));
    return;
  }
  void queryClient.prefetchQuery(queries.app(appId));
  if (sub) return;
  void queryClient.prefetchQuery(queries.draft(appId));
  // The workflow editor names the agents, tools and MCP servers its nodes bind.
  if (kind !== 'workflow') return;
  void queryClient.prefetchQuery(queries.agentChoices(spaceId));
  void queryClient.prefetchQuery(queries.resources(spaceId, 'tool'));
  void queryClient.prefetchQuery(queries.resources(spaceId, 'mcp-server'));
}
