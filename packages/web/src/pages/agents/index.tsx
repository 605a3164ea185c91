import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { AppListPage } from '../../apps/index.js';

type Mode = 'react' | 'plan-executor';
const modeLabels: Record<Mode, string> = { react: 'ReAct', 'plan-executor': 'Plan–Executor' };

/** The space's agents and the one "create" entry; the execution mode is chosen here for good (P-3.5). */
export function AgentsPage() {
  const spaceId = useParams().spaceId ?? '';
  const [mode, setMode] = useState<Mode>('react');
  return (
    <AppListPage
      spaceId={spaceId}
      kind="agent"
      title="Agents"
      noun="agent"
      columns={[{ header: 'Mode', cell: (app) => (app.mode ? modeLabels[app.mode] : '') }]}
      publishedCell={(app) => (
        <>
          <Link to={`${app.id}/releases`}>yes</Link> ·{' '}
          <Link to={`${app.id}/chat`} aria-label={`Chat with ${app.name}`}>
            chat
          </Link>
        </>
      )}
      createBody={({ name, description }) => ({ kind: 'agent', mode, name, description })}
      createFields={
        <fieldset className="fieldset">
          <legend>Execution mode (cannot be changed later)</legend>
          {(Object.keys(modeLabels) as Mode[]).map((item) => (
            <label key={item} className="check-row">
              <input type="radio" name="mode" value={item} checked={mode === item} onChange={() => setMode(item)} />{' '}
              {modeLabels[item]}
              <span className="field-hint">
                {item === 'react'
                  ? ' — one agent that thinks and calls tools in a loop.'
                  : ' — a planner that hands tasks to executor roles.'}
              </span>
            </label>
          ))}
        </fieldset>
      }
    />
  );
}
