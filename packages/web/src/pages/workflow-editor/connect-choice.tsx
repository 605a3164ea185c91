import { useT } from '../../i18n/index.js';
import type { WorkflowDraft } from './draft-model.js';
import { addLoop, addRouteBranch } from './flow-model.js';
import { addEdge } from './workflow-canvas.js';

/** A connection drawn on the canvas, waiting for what it should be. */
export interface PendingConnection {
  from: string;
  to: string;
}

/**
 * What a connection drawn on the canvas becomes (issue 36): a plain edge, a branch of the source's
 * conditional route, or a bounded loop back to the target. A route or loop is selected once made,
 * so its condition is edited next in the side panel.
 */
export function ConnectChoice({
  draft,
  pending,
  onChange,
  onSelect,
  onDone,
}: {
  draft: WorkflowDraft;
  pending: PendingConnection;
  onChange: (change: (draft: WorkflowDraft) => WorkflowDraft) => void;
  onSelect: (id: string | undefined) => void;
  onDone: () => void;
}) {
  const t = useT();
  const { from, to } = pending;
  const make = (kind: 'edge' | 'route' | 'loop') => {
    onChange((current) => {
      if (kind === 'edge') return addEdge(current, from, to);
      return (kind === 'route' ? addRouteBranch(current, from, to) : addLoop(current, from, to)).draft;
    });
    // The index the new route or loop gets in the draft as shown (the one the change is applied to).
    if (kind === 'route') onSelect(`route-${addRouteBranch(draft, from, to).index}-0`);
    if (kind === 'loop') onSelect(`loop-${addLoop(draft, from, to).index}-back`);
    if (kind === 'edge') onSelect(undefined);
    onDone();
  };
  return (
    <section className="card flow-panel" aria-labelledby="connect-heading" data-testid="connect-choice">
      <h2 id="connect-heading">{t('flow.connect.heading', { from, to })}</h2>
      <div className="flow-choice">
        <button type="button" onClick={() => make('edge')}>
          {t('flow.connect.edge')}
        </button>
        {from === 'START' ? null : (
          <button type="button" onClick={() => make('route')}>
            {t('flow.connect.route')}
          </button>
        )}
        {from === 'START' || to === 'END' ? null : (
          <button type="button" onClick={() => make('loop')}>
            {t('flow.connect.loop')}
          </button>
        )}
        <button type="button" onClick={onDone}>
          {t('flow.connect.cancel')}
        </button>
      </div>
      <p className="field-hint">{t('flow.connect.hint')}</p>
    </section>
  );
}
