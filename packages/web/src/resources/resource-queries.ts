import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, queryKeys, type Schema, unwrap } from '../api/index.js';

/** A shared resource type (prompts, skills, tools, MCP servers, hooks). */
export type ResourceType = Schema<'Resource'>['type'];

/** The space's resources of one type, and a function that refreshes them after a change. */
export function useResources(spaceId: string, type: ResourceType) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.resources(spaceId, type),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/resources', { params: { path: { spaceId }, query: { type } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.resources(spaceId) });
  return { ...query, refresh };
}

/** The newest version of a resource (its content), when it has one. */
export function useLatestVersion(spaceId: string, resource: Schema<'Resource'> | undefined) {
  return useQuery({
    queryKey: queryKeys.resourceVersion(spaceId, resource?.id, resource?.latestVersion),
    enabled: Boolean(resource && resource.latestVersion > 0),
    queryFn: () =>
      unwrap(
        api.GET('/spaces/{spaceId}/resources/{resourceId}/versions/{version}', {
          params: { path: { spaceId, resourceId: resource?.id ?? '', version: resource?.latestVersion ?? 0 } },
        }),
      ),
  });
}
