import { ApiProblem } from '../api/index.js';
import { Notice, ProblemAlert } from '../components/index.js';
import { useT } from '../i18n/index.js';

/** The save and check mutations of an editor, as far as the shared pieces read them. */
interface Mutation {
  error: unknown;
  isPending: boolean;
  isSuccess: boolean;
}

/**
 * How the last save and check went: a refused save (a conflict has its own alert) or check in
 * words, "Saved" while nothing changed since, and "ready to publish" after a clean check.
 */
export function DraftStatus({
  save,
  validate,
  dirty,
  revision,
  issueCount,
  readyText,
}: {
  save: Mutation;
  validate: Mutation;
  dirty: boolean;
  revision: number;
  issueCount: number;
  /** Said after a check that found nothing, e.g. "The draft is ready to publish." */
  readyText: string;
}) {
  const conflict = save.error instanceof ApiProblem && save.error.code === 'stale-revision';
  const t = useT();
  return (
    <>
      {save.error && !conflict ? <ProblemAlert problem={save.error} title={t('draft.notSaved')} /> : null}
      <ProblemAlert problem={validate.error} />
      {save.isSuccess && !dirty ? <Notice>{t('draft.saved', { revision })}</Notice> : null}
      {validate.isSuccess && issueCount === 0 ? <Notice>{readyText}</Notice> : null}
    </>
  );
}

/** The editor's Save (editors only) and "Check for problems" buttons; both wait for a saved draft as fits. */
export function DraftSaveAndCheck({
  save,
  validate,
  dirty,
  readOnly,
  onSave,
  onCheck,
}: {
  save: Mutation;
  validate: Mutation;
  dirty: boolean;
  readOnly: boolean;
  onSave: () => void;
  onCheck: () => void;
}) {
  const t = useT();
  return (
    <>
      {readOnly ? null : (
        <button type="button" className="button-primary" onClick={onSave} disabled={save.isPending || !dirty}>
          {save.isPending ? t('draft.saving') : dirty ? t('draft.save') : t('draft.savedButton')}
        </button>
      )}
      <button type="button" onClick={onCheck} disabled={validate.isPending || dirty}>
        {t('draft.check')}
      </button>
    </>
  );
}
