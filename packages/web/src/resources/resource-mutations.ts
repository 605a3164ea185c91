import { useMutation } from '@tanstack/react-query';
import { api, type Schema, unwrap } from '../api/index.js';

/**
 * Saves a new version of a resource with `content` (a prompt's text, a tool's request, an MCP
 * server's URL …); `onSaved` refreshes what shows the list. One declaration for every resource
 * page, so they all save the same way and show the same typed problems.
 */
export function useSaveVersion<Content>(spaceId: string, resourceId: string, onSaved: () => void) {
  return useMutation({
    mutationFn: (content: Content) =>
      unwrap(
        api.POST('/spaces/{spaceId}/resources/{resourceId}/versions', {
          params: { path: { spaceId, resourceId } },
          body: { content: content as Schema<'CreateResource'>['content'] },
        }),
      ),
    onSuccess: onSaved,
  });
}

/** Creates a resource of the space with its first version; `onCreated` clears the form and refreshes the list. */
export function useCreateResource(spaceId: string, onCreated: () => void) {
  return useMutation({
    mutationFn: (body: Schema<'CreateResource'>) =>
      unwrap(api.POST('/spaces/{spaceId}/resources', { params: { path: { spaceId } }, body })),
    onSuccess: onCreated,
  });
}

/** What is wrong with a JSON object typed as text, when something is. */
export type JsonObjectProblem = { kind: 'not-object' } | { kind: 'not-json'; error: string };

/** Reads a JSON object typed as text (request headers …); empty text is `{}`. */
export function parseJsonObjectText(text: string): { value?: Record<string, unknown>; problem?: JsonObjectProblem } {
  try {
    const value: unknown = JSON.parse(text.trim() || '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: { kind: 'not-object' } };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { problem: { kind: 'not-json', error: (error as Error).message } };
  }
}
