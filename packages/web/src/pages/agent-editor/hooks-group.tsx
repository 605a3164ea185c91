import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { ProblemAlert } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
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
  const t = useT();
  const hooksPage = (text: React.ReactNode) => <Link to={`/spaces/${spaceId}/hooks`}>{text}</Link>;
  if (hooks.length === 0)
    return (
      <p>
        <FormattedMessage id="hooksGroup.none" values={{ link: hooksPage }} />
      </p>
    );
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
      <p className="field-hint">
        <FormattedMessage id="hooksGroup.intro" values={{ link: hooksPage }} />
      </p>
      <ProblemAlert problem={error} />
      {hookTriggers
        .filter((item) => !unused.includes(item))
        .map(({ trigger }) => (
          <fieldset className="fieldset" key={trigger}>
            <legend>
              <code>{trigger}</code> <span className="field-hint">— {t(`hookTrigger.${trigger}`)}</span>
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
                      {matcher?.length ? (
                        <span className="field-hint">{t('hooksGroup.tools', { tools: matcher.join(', ') })}</span>
                      ) : null}
                    </label>
                    {index >= 0 && issueAt(`hooks.${index}`) ? <p className="field-error">{issueAt(`hooks.${index}`)}</p> : null}
                  </div>
                );
              })}
          </fieldset>
        ))}
      {missing.map((id) => (
        <p className="field-error" key={id}>
          {t('hooksGroup.missingHook', { id, problem: issueAt(`hooks.${draft.hooks.indexOf(id)}`) ?? t('hooksGroup.gone') })}{' '}
          {readOnly ? null : (
            <button type="button" onClick={() => toggle(id, false)}>
              {t('hooksGroup.remove', { id })}
            </button>
          )}
        </p>
      ))}
      {unused.length > 0 ? (
        <p className="field-hint">{t('hooksGroup.unused', { triggers: unused.map(({ trigger }) => trigger).join(', ') })}</p>
      ) : null}
    </>
  );
}
