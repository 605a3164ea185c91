import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/index.js';
import { ProblemAlert } from '../components/index.js';
import { useT } from '../i18n/index.js';

/** An input a workflow run waits for, as `GET /runs/{runId}` shows it (`pendingInputs`). */
export interface PendingInputView {
  interruptId: string;
  node: string;
  question: string;
  schema: Record<string, unknown> | null;
  choices: unknown[] | null;
  deadlineAt: string | null;
}

/** Whether the answer is typed as text (a string schema, or none): otherwise it is written as JSON. */
function isText(input: PendingInputView): boolean {
  return input.schema === null || input.schema.type === 'string';
}

/**
 * The form of the inputs a workflow run waits for (issue 36): the question, then one button per
 * offered choice, or a field (text for a string answer, JSON for any other). The server checks the
 * answer against the input's schema and takes exactly one answer: a refusal (an invalid answer,
 * someone answered first) is shown as the server words it.
 */
export function InputRequests({
  runId,
  inputs,
  onAnswered,
}: {
  runId: string;
  inputs: readonly PendingInputView[];
  onAnswered: () => void;
}) {
  const t = useT();
  if (inputs.length === 0) return null;
  return (
    <section className="approvals" aria-label={t('input.region')}>
      {inputs.map((input) => (
        <InputRequest key={input.interruptId} runId={runId} input={input} onAnswered={onAnswered} />
      ))}
    </section>
  );
}

function InputRequest({ runId, input, onAnswered }: { runId: string; input: PendingInputView; onAnswered: () => void }) {
  const t = useT();
  const [text, setText] = useState('');
  const [invalidJson, setInvalidJson] = useState(false);
  const answer = useMutation({
    mutationFn: (value: unknown) =>
      unwrap(
        api.POST('/runs/{runId}/input', { params: { path: { runId } }, body: { interruptId: input.interruptId, answer: value } }),
      ),
    onSuccess: onAnswered,
  });
  const submit = () => {
    if (isText(input)) {
      answer.mutate(text);
      return;
    }
    try {
      setInvalidJson(false);
      answer.mutate(JSON.parse(text));
    } catch {
      setInvalidJson(true);
    }
  };
  const fieldId = `input-${input.interruptId}`;
  return (
    <div className="approval approval-waiting" data-input={input.interruptId}>
      <p>
        <strong>{t('input.needed', { node: input.node })}:</strong> {input.question}
      </p>
      {input.deadlineAt ? <p className="field-hint">{t('input.deadline', { at: new Date(input.deadlineAt) })}</p> : null}
      {answer.isSuccess ? (
        <p role="status">{t('input.sent')}</p>
      ) : input.choices ? (
        <div className="button-row">
          {input.choices.map((choice) => (
            <button
              key={JSON.stringify(choice)}
              type="button"
              className="button-primary"
              disabled={answer.isPending}
              onClick={() => answer.mutate(choice)}
            >
              {typeof choice === 'string' ? choice : JSON.stringify(choice)}
            </button>
          ))}
        </div>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <label htmlFor={fieldId}>{isText(input) ? t('input.answer') : t('input.answerJson')}</label>
          <textarea id={fieldId} value={text} rows={isText(input) ? 2 : 5} onChange={(event) => setText(event.target.value)} />
          {invalidJson ? <p className="field-error">{t('input.invalidJson')}</p> : null}
          <div className="button-row">
            <button type="submit" className="button-primary" disabled={answer.isPending}>
              {t('input.send')}
            </button>
          </div>
        </form>
      )}
      <ProblemAlert problem={answer.error} title={t('input.notRecorded')} />
    </div>
  );
}
