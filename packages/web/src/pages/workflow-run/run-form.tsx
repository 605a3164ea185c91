import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api, unwrap } from '../../api/index.js';
import { fieldMessage, focusFirstInvalid, ProblemAlert, SelectField, TextAreaField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { checkRunInput, sampleInput } from './run-input.js';

/**
 * The form that starts a run of a published workflow (P-8.12, D-P1): the release to run (pinned
 * with `releaseVersion`, the newest by default) and the input as a JSON object of state fields,
 * checked before it is sent and explained at the field when refused (here or by the server).
 */
export function RunForm({
  appId,
  versions,
  version,
  state,
  written,
  onVersion,
  onStarted,
}: {
  appId: string;
  /** Published versions, newest first. */
  versions: readonly number[];
  version: number;
  state: Record<string, unknown>;
  /** The state fields nodes write (their outputs): the form starts with one that none writes. */
  written: readonly string[];
  onVersion: (version: number) => void;
  onStarted: (runId: string) => void;
}) {
  const t = useT();
  const [text, setText] = useState(() => sampleInput(state, written));
  const [error, setError] = useState<string | undefined>();
  const form = useRef<HTMLFormElement>(null);
  const start = useMutation({
    mutationFn: async (input: Record<string, unknown>) => {
      const answer = await unwrap(
        api.POST('/apps/{appId}/runs', {
          params: { path: { appId } },
          body: { input, releaseVersion: version, mode: 'async', release: 'latest' },
        }),
      );
      // An async start answers 202 with the accepted run (the union also covers the stream and blocking modes).
      return answer as { runId: string };
    },
    onSuccess: (accepted) => onStarted(accepted.runId),
    onError: () => focusFirstInvalid(form.current),
  });
  const inputError = fieldMessage({ input: error }, start.error, 'input');

  return (
    <form
      ref={form}
      className="card"
      aria-labelledby="run-form-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const checked = checkRunInput(text, state, t);
        if (!checked.ok) {
          setError(checked.message);
          focusFirstInvalid(form.current);
          return;
        }
        setError(undefined);
        start.mutate(checked.value);
      }}
    >
      <h2 id="run-form-title">{t('workflowRun.form.title')}</h2>
      <SelectField
        label={t('workflowRun.form.release')}
        value={String(version)}
        onChange={(event) => onVersion(Number(event.target.value))}
        hint={t('workflowRun.form.releaseHint')}
      >
        {versions.map((item, index) => (
          <option key={item} value={item}>
            {t('workflowRun.form.version', { version: item })}
            {index === 0 ? t('workflowRun.form.newest') : ''}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label={t('workflowRun.form.input')}
        className="flow-json"
        rows={3}
        spellCheck={false}
        value={text}
        error={inputError}
        hint={t('workflowRun.form.stateFields', { fields: Object.keys(state).join(', ') || t('workflow.none') })}
        onChange={(event) => {
          setText(event.target.value);
          setError(undefined);
          start.reset();
        }}
      />
      {start.error && !inputError ? <ProblemAlert problem={start.error} title={t('workflowRun.form.notStarted')} /> : null}
      <div className="button-row">
        <button type="submit" className="button-primary" disabled={start.isPending}>
          {start.isPending ? t('workflowRun.form.starting') : t('workflowRun.form.run')}
        </button>
      </div>
    </form>
  );
}
