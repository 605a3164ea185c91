import { type FormEvent, useRef, useState } from 'react';
import { fieldMessage, focusFirstInvalid, Notice, ProblemAlert, TextAreaField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';

/** What a sent message became, as the server answered it. */
export interface SentMessage {
  kind: 'supplement' | 'run';
  /** The page meant a supplement, but the running question had just ended: it became a new one. */
  questionEndedFirst?: boolean;
}

/**
 * The chat's one text box (P-8.3): while a run is active it sends a supplement to that run,
 * otherwise a new question; the button, the hint and the confirmation say which. End asks the
 * current run to stop (no pause or resume, NOT-11).
 */
export function Composer({
  active,
  canEnd,
  send,
  end,
}: {
  active: boolean;
  canEnd: boolean;
  send: (text: string) => Promise<SentMessage>;
  end: () => Promise<void>;
}) {
  const form = useRef<HTMLFormElement>(null);
  const t = useT();
  const [text, setText] = useState('');
  const [localError, setLocalError] = useState<string>();
  const [problem, setProblem] = useState<unknown>();
  const [sent, setSent] = useState<SentMessage>();
  const [busy, setBusy] = useState(false);
  const [ending, setEnding] = useState(false);
  const [endProblem, setEndProblem] = useState<unknown>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSent(undefined);
    setProblem(undefined);
    if (text.trim() === '') {
      setLocalError(t('composer.messageMissing'));
      focusFirstInvalid(form.current);
      return;
    }
    setLocalError(undefined);
    setBusy(true);
    try {
      setSent(await send(text));
      setText('');
    } catch (error) {
      setProblem(error);
      focusFirstInvalid(form.current);
    } finally {
      setBusy(false);
    }
  };

  const stop = async () => {
    setEndProblem(undefined);
    setEnding(true);
    try {
      await end();
    } catch (error) {
      setEndProblem(error);
    } finally {
      setEnding(false);
    }
  };

  const error = localError ?? fieldMessage({}, problem, 'text') ?? fieldMessage({}, problem, 'input');
  return (
    <section className="card composer" aria-label={t('composer.region')}>
      <form ref={form} onSubmit={submit} noValidate>
        <p className="composer-mode">
          <span className={active ? 'badge badge-warn' : 'badge'}>
            {active ? t('composer.supplement') : t('composer.newQuestion')}
          </span>{' '}
          {active ? t('composer.activeHint') : t('composer.idleHint')}
        </p>
        <TextAreaField
          label={t('composer.message')}
          rows={3}
          value={text}
          error={error}
          onValue={setText}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) form.current?.requestSubmit();
          }}
          hint={t('composer.sendHint')}
        />
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy}>
            {active ? t('composer.sendSupplement') : t('composer.ask')}
          </button>
          {canEnd ? (
            <button type="button" className="button-danger" onClick={stop} disabled={ending}>
              {ending ? t('composer.ending') : t('composer.end')}
            </button>
          ) : null}
        </div>
      </form>
      {sent ? (
        <Notice>
          {sent.kind === 'supplement' ? t('composer.sentSupplement') : t('composer.sentQuestion')}
          {sent.questionEndedFirst ? ` ${t('composer.questionEndedFirst')}` : ''}
        </Notice>
      ) : null}
      <ProblemAlert problem={error ? undefined : problem} title={t('composer.notSent')} />
      <ProblemAlert problem={endProblem} title={t('composer.notEnded')} />
    </section>
  );
}
