import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { ApiProblem, api, queryKeys, unwrap } from '../../api/index.js';
import { ProblemAlert } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { RunTurn, useRunStream } from '../../runs/index.js';

/**
 * Debug mode of the editor (PLATFORM.md §4.4 `release: 'draft'`): asks the saved draft a question
 * without publishing. Each question runs on an immutable snapshot of the draft as it is saved
 * now, in a debug session the app's session list never shows; the answer, approvals and the run
 * view link appear below as on the chat page. Problems of the draft stand at their fields.
 */
export function DebugPanel({
  appId,
  runLinkBase,
  disabledReason,
  onRefused,
}: {
  appId: string;
  runLinkBase: string;
  /** Why the draft cannot run now (unsaved changes), shown instead of running. */
  disabledReason?: string | undefined;
  onRefused: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  const titleId = useId();
  const fieldId = useId();
  const [text, setText] = useState('');
  const t = useT();
  const [fieldError, setFieldError] = useState<string>();
  const [runIds, setRunIds] = useState<string[]>([]);
  const latestRunId = runIds.at(-1);
  const stream = useRunStream(latestRunId, 'agent');
  const eventCount = stream.events.length;
  useEffect(() => {
    if (eventCount > 0 && latestRunId) void queryClient.invalidateQueries({ queryKey: queryKeys.runView(latestRunId) });
  }, [eventCount, latestRunId, queryClient]);

  const start = useMutation({
    mutationFn: (input: string) =>
      unwrap(
        api.POST('/apps/{appId}/runs', {
          params: { path: { appId }, query: {}, header: {} },
          body: { input, mode: 'async', release: 'draft' },
        }),
      ) as Promise<{ runId: string }>,
    onSuccess: (accepted) => {
      setRunIds((current) => [...current, accepted.runId]);
      setText('');
    },
    onError: (error) => {
      if (error instanceof ApiProblem) onRefused(error);
    },
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setFieldError(t('debug.questionMissing'));
      return;
    }
    setFieldError(undefined);
    start.mutate(text.trim());
  };

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('debug.title')}</h2>
      <p className="field-hint">{t('debug.hint')}</p>
      {runIds.map((runId) => (
        <RunTurn key={runId} runId={runId} runLink={`${runLinkBase}/${runId}`} canDecide={runId === latestRunId} />
      ))}
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={fieldId}>{t('debug.question')}</label>
          <textarea
            id={fieldId}
            rows={2}
            value={text}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${fieldId}-error` : undefined}
            onChange={(event) => setText(event.target.value)}
          />
          {fieldError ? (
            <p className="field-error" id={`${fieldId}-error`}>
              {fieldError}
            </p>
          ) : null}
        </div>
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={start.isPending || Boolean(disabledReason)}>
            {start.isPending ? t('debug.starting') : t('debug.run')}
          </button>
          {disabledReason ? <span className="field-hint">{disabledReason}</span> : null}
        </div>
      </form>
      <ProblemAlert problem={start.error} title={t('debug.failed')} />
    </section>
  );
}
