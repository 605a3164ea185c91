import { useParams } from 'react-router';
import { PageHeader, ProblemAlert } from '../../components/index.js';
import { hookTriggers, useHookContents, useResources } from '../../resources/index.js';
import { useSpaceAccess } from '../../session/index.js';
import { NewHookForm } from './new-hook-form.js';

/**
 * Hooks (P-4.11, K-4): webhooks the platform calls at a lifecycle trigger point of a run, shared
 * in the space and chosen per agent in the editor's Hooks group. Listed by trigger point in run
 * order, each with where it is sent and what it applies to.
 */
export function HooksPage() {
  const spaceId = useParams().spaceId ?? '';
  const access = useSpaceAccess(spaceId);
  const hooks = useResources(spaceId, 'hook');
  const list = hooks.data?.resources ?? [];
  const { contents, error } = useHookContents(spaceId, list);
  return (
    <>
      <PageHeader title="Hooks" />
      <ProblemAlert problem={hooks.error ?? error} />
      <table className="table">
        <caption className="visually-hidden">Hooks of this space by trigger point</caption>
        <thead>
          <tr>
            <th scope="col">Trigger point</th>
            <th scope="col">Hook</th>
            <th scope="col">Sent to</th>
            <th scope="col">Applies to</th>
            <th scope="col">If it fails</th>
            <th scope="col">Version</th>
          </tr>
        </thead>
        <tbody>
          {hookTriggers.flatMap(({ trigger, toolCalls }) =>
            list
              .filter((hook) => contents.get(hook.id)?.trigger === trigger)
              .map((hook) => {
                const content = contents.get(hook.id);
                return (
                  <tr key={hook.id}>
                    <td>
                      <code>{trigger}</code>
                    </td>
                    <td>
                      {hook.name}
                      {hook.description ? <span className="field-hint"> — {hook.description}</span> : null}
                    </td>
                    <td>
                      <code>{content?.url}</code>
                    </td>
                    <td>
                      {toolCalls
                        ? content?.matcher?.length
                          ? content.matcher.join(', ')
                          : 'every tool call'
                        : 'not a tool trigger point'}
                    </td>
                    <td>{content?.failClosed ? 'deny (fail closed)' : 'skipped'}</td>
                    <td>v{hook.latestVersion}</td>
                  </tr>
                );
              }),
          )}
          {hooks.isSuccess && list.length === 0 ? (
            <tr>
              <td colSpan={6}>No hook yet.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {access.canEdit ? (
        <NewHookForm spaceId={spaceId} onCreated={hooks.refresh} />
      ) : (
        <p className="field-hint">Viewers cannot change hooks.</p>
      )}
    </>
  );
}
