import { useQuery } from '@tanstack/react-query';
import { queries } from '../api/index.js';

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
  const app = useQuery(queries.app(appId));
  const stored = useQuery({ ...queries.draft(appId), refetchOnWindowFocus: false });
  return { app, stored };
}
