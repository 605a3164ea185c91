import { useParams } from 'react-router';
import { DataTable, PageShell } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
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
  const t = useT();
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
    <PageShell title={t('hooks.title')} problem={hooks.error ?? error}>
      <DataTable
        caption={t('hooks.caption')}
        columns={[
          { key: 'trigger', header: t('hooks.trigger'), cell: ({ trigger }) => <code>{trigger}</code> },
          {
            key: 'hook',
            header: t('hooks.hook'),
            cell: ({ hook }) => (
              <>
                {hook.name}
                {hook.description ? <span className="field-hint"> — {hook.description}</span> : null}
              </>
            ),
          },
          { key: 'url', header: t('hooks.sentTo'), cell: ({ content }) => <code>{content?.url}</code> },
          {
            key: 'applies',
            header: t('hooks.appliesTo'),
            cell: ({ toolCalls, content }) =>
              toolCalls
                ? content?.matcher?.length
                  ? content.matcher.join(', ')
                  : t('hooks.everyToolCall')
                : t('hooks.notToolTrigger'),
          },
          {
            key: 'fails',
            header: t('hooks.ifFails'),
            cell: ({ content }) => (content?.failClosed ? t('hooks.failClosed') : t('hooks.skipped')),
          },
          {
            key: 'version',
            header: t('hooks.version'),
            cell: ({ hook }) => t('common.version', { version: hook.latestVersion }),
          },
        ]}
        rows={hooks.isSuccess ? rows : undefined}
        rowKey={({ hook }) => hook.id}
        empty={list.length === 0 ? t('hooks.empty') : undefined}
      />
      {access.canEdit ? (
        <NewHookForm spaceId={spaceId} onCreated={hooks.refresh} />
      ) : (
        <p className="field-hint">{t('hooks.viewersCannot')}</p>
      )}
    </PageShell>
  );
}
