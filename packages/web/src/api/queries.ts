import { queryOptions } from '@tanstack/react-query';
import { api, type Schema } from './client.js';
import { unwrap } from './problem.js';
import { queryKeys } from './query-keys.js';

/**
 * The reads that several pages make, each written once: its key from `queryKeys` and its request.
 * A page passes one to `useQuery`, adding only what is its own (a refetch interval, `enabled`).
 */
export const queries = {
  /** A space's apps of one kind (agents, workflows, routers), as its list page shows them. */
  apps: (spaceId: string, kind: 'agent' | 'workflow' | 'router') =>
    queryOptions({
      queryKey: queryKeys.apps(spaceId, kind),
      queryFn: () => unwrap(api.GET('/spaces/{spaceId}/apps', { params: { path: { spaceId }, query: { kind } } })),
    }),
  /** The space's agent apps, as the workflow editor offers them for agent nodes. */
  agentChoices: (spaceId: string) =>
    queryOptions({
      queryKey: queryKeys.apps(spaceId),
      queryFn: () => unwrap(api.GET('/spaces/{spaceId}/apps', { params: { path: { spaceId }, query: { kind: 'agent' } } })),
    }),
  /** A space's resources of one type (tools, MCP servers, prompts…). */
  resources: (spaceId: string, type: Schema<'Resource'>['type']) =>
    queryOptions({
      queryKey: queryKeys.resources(spaceId, type),
      queryFn: () => unwrap(api.GET('/spaces/{spaceId}/resources', { params: { path: { spaceId }, query: { type } } })),
    }),
  /** One app: its name, kind and latest release. */
  app: (appId: string) =>
    queryOptions({
      queryKey: queryKeys.app(appId),
      queryFn: () => unwrap(api.GET('/apps/{appId}', { params: { path: { appId } } })),
    }),
  /** An app's stored draft. */
  draft: (appId: string) =>
    queryOptions({
      queryKey: queryKeys.draft(appId),
      queryFn: () => unwrap(api.GET('/apps/{appId}/draft', { params: { path: { appId } } })),
    }),
  /** An app's releases, newest first. */
  releases: (appId: string) =>
    queryOptions({
      queryKey: queryKeys.releases(appId),
      queryFn: () => unwrap(api.GET('/apps/{appId}/releases', { params: { path: { appId } } })),
    }),
  /** A run's row: the API status (with `stopping`), its release and output. Disabled without a run id. */
  run: (runId: string | undefined) =>
    queryOptions({
      queryKey: queryKeys.run(runId),
      enabled: Boolean(runId),
      queryFn: async () => (await unwrap(api.GET('/runs/{runId}', { params: { path: { runId: runId ?? '' } } }))).run,
    }),
};
