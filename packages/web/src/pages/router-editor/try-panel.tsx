import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, type Schema, unwrap } from '../../api/index.js';
import { CheckboxField, ProblemAlert, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { replyText, TurnDetails } from '../../routers/index.js';

/**
 * "Try it" (issue 33): the saved draft understands a typed message (`POST
 * /routers/{appId}/draft/try`) and the panel shows the reply, the commands and each layer's
 * verdict. Nothing runs. With "continue", the next try starts from the dialogue state the last
 * one left, so a slot-filling conversation can be walked through.
 */
export function TryPanel({ appId, disabled, appName }: { appId: string; disabled: boolean; appName: (id: string) => string }) {
  const t = useT();
  const [text, setText] = useState('');
  const [keepState, setKeepState] = useState(true);
  const [state, setState] = useState<Schema<'DialogueState'>>({});
  const [missing, setMissing] = useState(false);
  const attempt = useMutation({
    mutationFn: (message: string) =>
      unwrap(
        api.POST('/routers/{appId}/draft/try', {
          params: { path: { appId } },
          body: { text: message, state: keepState ? state : {} },
        }),
      ),
    onSuccess: (result) => setState(result.state),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    attempt.mutate(text.trim());
  };
  return (
    <section className="card router-try" aria-labelledby="router-try-title">
      <h2 id="router-try-title">{t('router.try')}</h2>
      <p className="field-hint">{t('router.tryIntro')}</p>
      <form onSubmit={submit}>
        <TextField
          label={t('router.tryMessage')}
          value={text}
          error={missing ? t('router.tryMissing') : undefined}
          onValue={setText}
        />
        <CheckboxField
          label={t('router.tryKeepState')}
          checked={keepState}
          onChange={(event) => setKeepState(event.target.checked)}
        />
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={disabled || attempt.isPending}>
            {attempt.isPending ? t('router.trying') : t('router.tryButton')}
          </button>
          <button type="button" onClick={() => setState({})}>
            {t('router.tryReset')}
          </button>
        </div>
      </form>
      <ProblemAlert problem={attempt.error} />
      {attempt.data ? (
        <div role="status">
          <p className="router-reply">{replyText(t, attempt.data.reply)}</p>
          <TurnDetails turn={attempt.data} appName={appName} />
          <h3>{t('router.state')}</h3>
          <pre className="code">{JSON.stringify(attempt.data.state, null, 2)}</pre>
        </div>
      ) : null}
    </section>
  );
}
