import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, queries, queryKeys, type Schema, unwrap } from '../../api/index.js';
import { PageHeader, ProblemAlert, TextAreaField } from '../../components/index.js';
import { type MessageId, useT } from '../../i18n/index.js';
import { replyText, TurnDetails } from '../../routers/index.js';

type Turn = { text: string; result: Schema<'RouterTurn'> };

const effectWords: Record<Schema<'RouterTurn'>['effects'][number]['type'], MessageId> = {
  started: 'router.effectStarted',
  supplemented: 'router.effectSupplemented',
  stopped: 'router.effectStopped',
};

/**
 * The router's chat page (issue 33): each message goes to `POST /routers/{appId}/messages` in the
 * conversation's session; the transcript shows the router's reply, the runs it started,
 * supplemented or stopped (with links to them), and under "how it was understood" the deciding
 * layer, the commands and every layer's verdict. The session is in the address (`?session=`), so
 * a reload reads the conversation back from the server; "New conversation" starts a new one.
 */
export function RouterChatPage() {
  const { spaceId = '', appId = '' } = useParams();
  const t = useT();
  const app = useQuery(queries.app(appId));
  const spaceApps = useQuery({
    queryKey: queryKeys.apps(spaceId),
    queryFn: () => unwrap(api.GET('/spaces/{spaceId}/apps', { params: { path: { spaceId } } })),
  });
  const [search, setSearch] = useSearchParams();
  const sessionId = search.get('session') ?? undefined;
  const setSessionId = (id: string | undefined) => setSearch(id ? { session: id } : {}, { replace: true });
  // The turns this page held of a session; another session in the address (a reload, a shared link) is read back.
  const [local, setLocal] = useState<{ sessionId: string | undefined; turns: Turn[] }>({ sessionId: undefined, turns: [] });
  const held = local.sessionId === sessionId;
  const stored = useQuery({
    queryKey: ['router-session', appId, sessionId],
    enabled: Boolean(sessionId) && !held,
    queryFn: () =>
      unwrap(api.GET('/routers/{appId}/sessions/{sessionId}', { params: { path: { appId, sessionId: sessionId ?? '' } } })),
  });
  const turns: Turn[] = held ? local.turns : (stored.data?.turns.map((turn) => ({ text: turn.text, result: turn.result })) ?? []);
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const send = useMutation({
    mutationFn: (message: string) =>
      unwrap(
        api.POST('/routers/{appId}/messages', {
          params: { path: { appId } },
          body: { text: message, ...(sessionId ? { sessionId } : {}) },
        }),
      ),
    onSuccess: (result, message) => {
      setLocal({ sessionId: result.sessionId, turns: [...turns, { text: message, result }] });
      setSessionId(result.sessionId);
      setText('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    send.mutate(text.trim());
  };
  const loadError = app.error ?? spaceApps.error ?? stored.error;
  if (loadError) return <ProblemAlert problem={loadError} title={t('router.loadFailed')} />;
  if (!app.data) return <p>{t('router.loading')}</p>;
  const apps = spaceApps.data?.apps ?? [];
  const appOf = (id: string) => apps.find((candidate) => candidate.id === id);
  const appName = (id: string) => appOf(id)?.name ?? id;
  const runLink = (targetId: string, runId: string) =>
    `/spaces/${spaceId}/${appOf(targetId)?.kind === 'workflow' ? 'workflows' : 'agents'}/${targetId}/runs/${runId}`;
  return (
    <>
      <PageHeader title={t('router.chatTitle', { name: app.data.app.name })}>
        {sessionId ? <span className="badge badge-muted">{t('router.chatSession', { id: sessionId })}</span> : null}
        <button
          type="button"
          onClick={() => {
            setLocal({ sessionId: undefined, turns: [] });
            setSessionId(undefined);
            send.reset();
          }}
        >
          {t('router.chatNew')}
        </button>
      </PageHeader>
      {app.data.app.latestReleaseId ? null : <p className="alert alert-warning">{t('router.chatNoRelease')}</p>}
      <section className="transcript" aria-label={t('router.chat')}>
        {turns.length === 0 ? <p className="empty">{t('router.chatEmpty')}</p> : null}
        {turns.map((turn) => (
          <article key={turn.result.turn} className="turn" aria-label={turn.text}>
            <div className="turn-question">
              <p className="turn-who">{t('router.chatYou')}</p>
              <p className="pre-wrap">{turn.text}</p>
            </div>
            <div className="turn-answer">
              <p className="turn-who">{t('router.chatRouter')}</p>
              <p className="pre-wrap router-reply">{replyText(t, turn.result.reply)}</p>
              {turn.result.effects.length > 0 ? (
                <ul className="item-list">
                  {turn.result.effects.map((effect) => (
                    <li key={`${effect.type}-${effect.runId}`}>
                      <span className="badge badge-muted">{t(effectWords[effect.type])}</span>{' '}
                      {effect.appId ? <strong>{appName(effect.appId)}</strong> : null}{' '}
                      <Link to={runLink(effect.appId ?? turn.result.state.run?.appId ?? '', effect.runId)}>
                        {t('router.openRun')}
                      </Link>
                    </li>
                  ))}
                </ul>
              ) : null}
              <details>
                <summary>{t('router.chatDetails')}</summary>
                <TurnDetails turn={turn.result} appName={appName} />
              </details>
            </div>
          </article>
        ))}
      </section>
      <form className="card composer" aria-label={t('router.chatRegion')} onSubmit={submit}>
        <TextAreaField
          label={t('router.chatMessage')}
          rows={2}
          value={text}
          error={missing ? t('router.chatMissing') : undefined}
          onValue={setText}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
          }}
        />
        <ProblemAlert problem={send.error} />
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={send.isPending || !app.data.app.latestReleaseId}>
            {send.isPending ? t('router.chatSending') : t('router.chatSend')}
          </button>
        </div>
      </form>
    </>
  );
}
