import { useQuery } from '@tanstack/react-query';
import { api, queryKeys, unwrap } from '../api/index.js';

/** What an editor holds besides the draft: the revision it was read at (sent as If-Match), whether it changed. */
export interface DraftEdit<Draft> {
  draft: Draft;
  revision: number;
  dirty: boolean;
}

/**
 * An app and its stored draft, as both editors load them. The draft is not refetched when the
 * window regains focus: a refetch would not replace unsaved edits anyway, and a conflicting save
 * is caught by `If-Match` when it happens.
 */
export function useAppWithDraft(appId: string) {
  const app = useQuery({
    queryKey: queryKeys.app(appId),
    queryFn: () => unwrap(api.GET('/apps/{appId}', { params: { path: { appId } } })),
  });
  const stored = useQuery({
    queryKey: queryKeys.draft(appId),
    queryFn: () => unwrap(api.GET('/apps/{appId}/draft', { params: { path: { appId } } })),
    refetchOnWindowFocus: false,
  });
  return { app, stored };
}
