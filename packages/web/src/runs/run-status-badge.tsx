import { useT } from '../i18n/index.js';
import { statusLabel } from './terminal-reason.js';

const tone: Record<string, string> = {
  succeeded: 'badge-ok',
  failed: 'badge-error',
  stopped: 'badge-warn',
  stopping: 'badge-warn',
  'waiting-input': 'badge-warn',
};

/** A run's status as a coloured badge (the word is always there, colour is never the only cue). */
export function RunStatusBadge({ status }: { status: string }) {
  const t = useT();
  return <span className={`badge ${tone[status] ?? ''}`}>{statusLabel(t, status)}</span>;
}
