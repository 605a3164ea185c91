import { useParams } from 'react-router';
import { DataTable, PageShell } from '../../components/index.js';
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
  // In run order of their trigger points; a hook whose content is not read yet waits.
  const rows = hookTriggers.flatMap(({ trigger, toolCalls }) =>
    list
      .filter((hook) => contents.get(hook.id)?.trigger === trigger)
      .map((hook) => ({ hook, trigger, toolCalls, content: contents.get(hook.id) })),
  );
  return (
    <PageShell title="Hooks" problem={hooks.error ?? error}>
      <DataTable
        caption="Hooks of this space by trigger point"
        columns={[
          { header: 'Trigger point', cell: ({ trigger }) => <code>{trigger}</code> },
          {
            header: 'Hook',
            cell: ({ hook }) => (
              <>
                {hook.name}
                {hook.description ? <span className="field-hint"> — {hook.description}</span> : null}
              </>
            ),
          },
          { header: 'Sent to', cell: ({ content }) => <code>{content?.url}</code> },
          {
            header: 'Applies to',
            cell: ({ toolCalls, content }) =>
              toolCalls
                ? content?.matcher?.length
                  ? content.matcher.join(', ')
                  : 'every tool call'
                : 'not a tool trigger point',
          },
          { header: 'If it fails', cell: ({ content }) => (content?.failClosed ? 'deny (fail closed)' : 'skipped') },
          { header: 'Version', cell: ({ hook }) => `v${hook.latestVersion}` },
        ]}
        rows={hooks.isSuccess ? rows : undefined}
        rowKey={({ hook }) => hook.id}
        empty={list.length === 0 ? 'No hook yet.' : undefined}
      />
      {access.canEdit ? (
        <NewHookForm spaceId={spaceId} onCreated={hooks.refresh} />
      ) : (
        <p className="field-hint">Viewers cannot change hooks.</p>
      )}
    </PageShell>
  );
}
