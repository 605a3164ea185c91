import { Link } from 'react-router';
import { ProblemAlert } from '../../components/index.js';
import { hookTriggers, useHookContents } from '../../resources/index.js';
import { useEditor } from './editor-context.js';

/**
 * Hooks by lifecycle trigger point (P-4.11, K-4): every trigger point in run order, each with the
 * space's hook resources that its newest version declares for it; the agent saves which ones it
 * uses (at one trigger point they run in the order chosen). Problems stand at the hook.
 */
export function HooksGroup({ spaceId }: { spaceId: string }) {
  const { draft, update, resources, readOnly, issueAt } = useEditor();
  const hooks = resources.filter((resource) => resource.type === 'hook' && resource.latestVersion > 0);
  const { contents, error } = useHookContents(spaceId, hooks);
  const hooksPage = <Link to={`/spaces/${spaceId}/hooks`}>Hooks page</Link>;
  if (hooks.length === 0)
    return <p>No hook in this space yet. Hooks are shared resources, made on the {hooksPage} and chosen here per agent.</p>;
  const unused = hookTriggers.filter(({ trigger }) => !hooks.some((hook) => contents.get(hook.id)?.trigger === trigger));
  // A hook chosen for the agent that is no longer in the space still shows, with its problem.
  const missing = draft.hooks.filter((id) => !hooks.some((hook) => hook.id === id));
  const toggle = (id: string, on: boolean) =>
    update((current) => ({
      ...current,
      hooks: on ? [...current.hooks, id] : current.hooks.filter((other) => other !== id),
    }));
  return (
    <>
      <p className="field-hint">Hooks are made on the {hooksPage}; tick the ones this agent uses.</p>
      <ProblemAlert problem={error} />
      {hookTriggers
        .filter((item) => !unused.includes(item))
        .map(({ trigger, when }) => (
          <fieldset className="fieldset" key={trigger}>
            <legend>
              <code>{trigger}</code> <span className="field-hint">— {when}</span>
            </legend>
            {hooks
              .filter((hook) => contents.get(hook.id)?.trigger === trigger)
              .map((hook) => {
                const index = draft.hooks.indexOf(hook.id);
                const matcher = contents.get(hook.id)?.matcher;
                return (
                  <div key={hook.id}>
                    <label className="check-row">
                      <input
                        type="checkbox"
                        disabled={readOnly}
                        checked={index >= 0}
                        onChange={(event) => toggle(hook.id, event.target.checked)}
                      />{' '}
                      {hook.name}
                      {matcher?.length ? <span className="field-hint"> (tools: {matcher.join(', ')})</span> : null}
                    </label>
                    {index >= 0 && issueAt(`hooks.${index}`) ? <p className="field-error">{issueAt(`hooks.${index}`)}</p> : null}
                  </div>
                );
              })}
          </fieldset>
        ))}
      {missing.map((id) => (
        <p className="field-error" key={id}>
          Hook {id}: {issueAt(`hooks.${draft.hooks.indexOf(id)}`) ?? 'not in this space any more.'}{' '}
          {readOnly ? null : (
            <button type="button" onClick={() => toggle(id, false)}>
              Remove hook {id}
            </button>
          )}
        </p>
      ))}
      {unused.length > 0 ? <p className="field-hint">No hook yet at {unused.map(({ trigger }) => trigger).join(', ')}.</p> : null}
    </>
  );
}
