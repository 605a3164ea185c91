import { type FormEvent, useRef, useState } from 'react';
import { fieldMessage, focusFirstInvalid, Notice, ProblemAlert, TextAreaField } from '../../components/index.js';

/** What a sent message became, as the server answered it. */
export interface SentMessage {
  kind: 'supplement' | 'run';
  note?: string;
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
      setLocalError('Type a message first.');
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
    <section className="card composer" aria-label="Write to the agent">
      <form ref={form} onSubmit={submit} noValidate>
        <p className="composer-mode">
          <span className={active ? 'badge badge-warn' : 'badge'}>{active ? 'Supplement' : 'New question'}</span>{' '}
          {active
            ? 'The agent is still working: what you send now is added to the running question.'
            : 'What you send now starts a new question in this session.'}
        </p>
        <TextAreaField
          label="Message"
          rows={3}
          value={text}
          error={error}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) form.current?.requestSubmit();
          }}
          hint="Ctrl+Enter sends."
        />
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy}>
            {active ? 'Send supplement' : 'Ask'}
          </button>
          {canEnd ? (
            <button type="button" className="button-danger" onClick={stop} disabled={ending}>
              {ending ? 'Ending…' : 'End run'}
            </button>
          ) : null}
        </div>
      </form>
      {sent ? (
        <Notice>
          {sent.kind === 'supplement' ? 'Sent as a supplement to the running question.' : 'Sent as a new question.'}
          {sent.note ? ` ${sent.note}` : ''}
        </Notice>
      ) : null}
      <ProblemAlert problem={error ? undefined : problem} title="The message was not sent." />
      <ProblemAlert problem={endProblem} title="The run could not be ended." />
    </section>
  );
}
