import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api, unwrap } from '../../api/index.js';
import { fieldMessage, focusFirstInvalid, ProblemAlert, SelectField, TextAreaField } from '../../components/index.js';
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
        const checked = checkRunInput(text, state);
        if (!checked.ok) {
          setError(checked.message);
          focusFirstInvalid(form.current);
          return;
        }
        setError(undefined);
        start.mutate(checked.value);
      }}
    >
      <h2 id="run-form-title">Run the workflow</h2>
      <SelectField
        label="Release"
        value={String(version)}
        onChange={(event) => onVersion(Number(event.target.value))}
        hint="The run stays on this release even if a newer one is published meanwhile."
      >
        {versions.map((item, index) => (
          <option key={item} value={item}>
            v{item}
            {index === 0 ? ' (newest)' : ''}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label="Input (JSON object of state fields)"
        className="flow-json"
        rows={3}
        spellCheck={false}
        value={text}
        error={inputError}
        hint={`State fields: ${Object.keys(state).join(', ') || '(none)'}.`}
        onChange={(event) => {
          setText(event.target.value);
          setError(undefined);
          start.reset();
        }}
      />
      {start.error && !inputError ? <ProblemAlert problem={start.error} title="The run was not started." /> : null}
      <div className="button-row">
        <button type="submit" className="button-primary" disabled={start.isPending}>
          {start.isPending ? 'Starting…' : 'Run'}
        </button>
      </div>
    </form>
  );
}
