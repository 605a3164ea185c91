import { useQueries } from '@tanstack/react-query';
import { api, unwrap } from '../../api/index.js';
import { useEditor } from './editor-context.js';

/**
 * Hooks by lifecycle trigger point (P-4.11): each shared hook resource is listed under the
 * trigger its newest version declares, and the agent saves which ones it uses.
 */
export function HooksGroup({ spaceId }: { spaceId: string }) {
  const { draft, update, resources, readOnly, issueAt } = useEditor();
  const hooks = resources.filter((resource) => resource.type === 'hook' && resource.latestVersion > 0);
  const versions = useQueries({
    queries: hooks.map((hook) => ({
      queryKey: ['resource-version', spaceId, hook.id, hook.latestVersion],
      queryFn: () =>
        unwrap(
          api.GET('/spaces/{spaceId}/resources/{resourceId}/versions/{version}', {
            params: { path: { spaceId, resourceId: hook.id, version: hook.latestVersion } },
          }),
        ),
    })),
  });
  const byTrigger = new Map<string, typeof hooks>();
  hooks.forEach((hook, index) => {
    const trigger = (versions[index]?.data?.version.content as { trigger?: string } | undefined)?.trigger ?? 'loading…';
    byTrigger.set(trigger, [...(byTrigger.get(trigger) ?? []), hook]);
  });
  if (hooks.length === 0) return <p>No hook in this space yet. Hooks are shared resources, chosen here per agent.</p>;
  return (
    <>
      {[...byTrigger.entries()].map(([trigger, items]) => (
        <fieldset className="fieldset" key={trigger}>
          <legend>{trigger}</legend>
          {items.map((hook) => {
            const index = draft.hooks.indexOf(hook.id);
            return (
              <div key={hook.id}>
                <label className="check-row">
                  <input
                    type="checkbox"
                    disabled={readOnly}
                    checked={index >= 0}
                    onChange={(event) =>
                      update((current) => ({
                        ...current,
                        hooks: event.target.checked ? [...current.hooks, hook.id] : current.hooks.filter((id) => id !== hook.id),
                      }))
                    }
                  />{' '}
                  {hook.name}
                </label>
                {index >= 0 && issueAt(`hooks.${index}`) ? <p className="field-error">{issueAt(`hooks.${index}`)}</p> : null}
              </div>
            );
          })}
        </fieldset>
      ))}
    </>
  );
}
