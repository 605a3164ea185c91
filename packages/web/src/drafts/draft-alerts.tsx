/**
 * The alerts both app editors (agent, workflow) show above a draft: a conflicting save and the
 * draft's problems. One copy, so both editors word a conflict and list problems the same way.
 */

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
  return (
    <div className="alert alert-error" role="alert">
      <h2>Someone else saved this draft</h2>
      <p>
        You edited revision {revision}; the draft is now at revision {conflict}. Your changes are not saved yet. Load their
        version (your changes are dropped) or save yours over theirs.
      </p>
      <div className="button-row">
        <button type="button" onClick={onLoadTheirs}>
          Load their version
        </button>
        <button type="button" className="button-danger" onClick={onOverwrite}>
          Overwrite with my changes
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
  if (issues.length === 0) return null;
  return (
    <div className="alert alert-warning" role="alert">
      {issues.length} problem{issues.length === 1 ? '' : 's'} to fix; {whereShown}:
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
