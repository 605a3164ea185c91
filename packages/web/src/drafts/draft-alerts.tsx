/**
 * The alerts both app editors (agent, workflow) show above a draft: a conflicting save and the
 * draft's problems. One copy, so both editors word a conflict and list problems the same way.
 */
import { useT } from '../i18n/index.js';

/**
 * Someone else saved the draft since it was read (`If-Match` → 412 `stale-revision`): both ways
 * out, loading theirs (dropping these changes) or saving these over theirs.
 */
export function DraftConflictAlert({
  revision,
  conflict,
  onLoadTheirs,
  onOverwrite,
}: {
  /** The revision the editor read. */
  revision: number;
  /** The revision the draft is at now. */
  conflict: number;
  onLoadTheirs: () => void;
  onOverwrite: () => void;
}) {
  const t = useT();
  return (
    <div className="alert alert-error" role="alert">
      <h2>{t('draft.conflictTitle')}</h2>
      <p>{t('draft.conflictText', { revision, conflict })}</p>
      <div className="button-row">
        <button type="button" onClick={onLoadTheirs}>
          {t('draft.loadTheirs')}
        </button>
        <button type="button" className="button-danger" onClick={onOverwrite}>
          {t('draft.overwrite')}
        </button>
      </div>
    </div>
  );
}

/** The draft's problems from a refused save, a check or a refused publish, listed by path. */
export function DraftIssueList({
  issues,
  whereShown,
  emptyPath = '',
}: {
  issues: readonly { path: string; message: string }[];
  /** Where else each problem stands, e.g. "each is shown next to its field". */
  whereShown: string;
  /** The name shown for a problem of the whole draft (an empty path). */
  emptyPath?: string;
}) {
  const t = useT();
  if (issues.length === 0) return null;
  return (
    <div className="alert alert-warning" role="alert">
      {t('draft.issues', { count: issues.length, whereShown })}
      <ul>
        {issues.map((issue) => (
          <li key={`${issue.path}:${issue.message}`}>
            <code>{issue.path.replace(/^config\./, '') || emptyPath}</code>: {issue.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
