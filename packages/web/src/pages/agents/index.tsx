import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { AppListPage } from '../../apps/index.js';
import { type MessageId, useT } from '../../i18n/index.js';

type Mode = 'react' | 'plan-executor';
const modeLabels: Record<Mode, MessageId> = { react: 'agents.mode.react', 'plan-executor': 'agents.mode.planExecutor' };

/** The space's agents and the one "create" entry; the execution mode is chosen here for good (P-3.5). */
export function AgentsPage() {
  const spaceId = useParams().spaceId ?? '';
  const [mode, setMode] = useState<Mode>('react');
  const t = useT();
  return (
    <AppListPage
      spaceId={spaceId}
      kind="agent"
      columns={[{ header: t('agents.mode'), cell: (app) => (app.mode ? t(modeLabels[app.mode]) : '') }]}
      publishedCell={(app) => (
        <>
          <Link to={`${app.id}/releases`}>{t('common.yes')}</Link> ·{' '}
          <Link to={`${app.id}/chat`} aria-label={t('agents.chatWith', { name: app.name })}>
            {t('agents.chat')}
          </Link>
        </>
      )}
      createBody={({ name, description }) => ({ kind: 'agent', mode, name, description })}
      createFields={
        <fieldset className="fieldset">
          <legend>{t('agents.modeLegend')}</legend>
          {(Object.keys(modeLabels) as Mode[]).map((item) => (
            <label key={item} className="check-row">
              <input type="radio" name="mode" value={item} checked={mode === item} onChange={() => setMode(item)} />{' '}
              {t(modeLabels[item])}
              <span className="field-hint">
                {item === 'react' ? t('agents.mode.reactHint') : t('agents.mode.planExecutorHint')}
              </span>
            </label>
          ))}
        </fieldset>
      }
    />
  );
}
