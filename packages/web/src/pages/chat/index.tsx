import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearchParams } from 'react-router';
import { queryKeys } from '../../api/index.js';
import { PageHeader, ProblemAlert } from '../../components/index.js';
import { CrashWorkerCard, SuggestedQuestion } from '../../demo/index.js';
import { useT } from '../../i18n/index.js';
import { isTerminal, RunTurn, useApp, useRunStream, useSession } from '../../runs/index.js';
import { Composer } from './composer.js';
import { LiveProgress } from './live-progress.js';
import { endRun, sendMessage } from './send-message.js';

/**
 * The chat page of a published agent (P-8.2, P-8.3): the session's questions in order, the live
 * progress of the current run from its event stream (re-attached after a drop or a reload),
 * approvals asked in place, and one text box that supplements the running question or asks a new
 * one. The session id is kept in the URL, so a reload comes back to the same conversation.
 */
export function ChatPage() {
  const { spaceId = '', appId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const sessionId = search.get('session') ?? undefined;
  const queryClient = useQueryClient();
  const t = useT();
  const app = useApp(appId);
  const session = useSession(sessionId);
  const runs = session.data?.runs ?? [];
  // The run this page just started, for the moment before the session lists it; it belongs to one
  // session, so "New conversation" (no session in the URL) does not show it.
  const [started, setStarted] = useState<{ runId: string; sessionId: string }>();
  const startedRunId = started && started.sessionId === sessionId ? started.runId : undefined;
  const latestRunId = startedRunId ?? runs.at(-1)?.id;
  const stream = useRunStream(latestRunId, 'agent');
  const latestEntry = runs.find((run) => run.id === latestRunId);
  const finished = stream.events.some((event) => event.type === 'run-finish');
  const active = Boolean(latestRunId) && !finished && !(latestEntry && isTerminal(latestEntry.status) && !startedRunId);

  // Each event may change what the run view shows (a supplement read, an approval, the end).
  const eventCount = stream.events.length;
  useEffect(() => {
    if (eventCount === 0 || !latestRunId) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.runView(latestRunId) });
    if (finished) void queryClient.invalidateQueries({ queryKey: queryKeys.session(sessionId) });
  }, [eventCount, finished, latestRunId, sessionId, queryClient]);

  const base = `/spaces/${spaceId}/agents/${appId}`;
  const published = app.data ? app.data.app.latestReleaseId !== null : true;

  const send = async (text: string) => {
    const sent = await sendMessage({ appId, sessionId, activeRunId: active ? latestRunId : undefined, text });
    if (sent.kind === 'run') {
      setStarted({ runId: sent.runId, sessionId: sent.sessionId });
      if (sent.sessionId !== sessionId) setSearch({ session: sent.sessionId });
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.session(sent.sessionId) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.runView(sent.runId) });
    return sent;
  };

  // Until the agent is read, its title only: the links and the conversation appear with its name,
  // so the name arriving (a longer title, wrapped on a phone) moves nothing below it.
  if (app.isPending) return <PageHeader title={t('chat.title')} />;
  return (
    <>
      <PageHeader title={app.data ? t('chat.titleWith', { name: app.data.app.name }) : t('chat.title')}>
        {sessionId ? <span className="badge badge-muted">{t('chat.session', { id: sessionId })}</span> : null}
        {sessionId ? <Link to={`${base}/chat`}>{t('chat.newConversation')}</Link> : null}
        <Link to={`${base}/sessions`}>{t('chat.sessions')}</Link>
        <Link to={`${base}/runs`}>{t('chat.runLog')}</Link>
      </PageHeader>
      <ProblemAlert problem={app.error ?? session.error} title={t('chat.readFailed')} />
      {!published ? (
        <p className="alert alert-warning">
          <FormattedMessage id="chat.noRelease" values={{ link: (text) => <Link to={base}>{text}</Link> }} />
        </p>
      ) : null}
      <div className="chat-layout">
        <section className="transcript" aria-label={t('chat.conversation')}>
          {runs.length === 0 && !startedRunId ? (
            <>
              <p className="empty">{t('chat.noQuestion')}</p>
              <SuggestedQuestion
                description={app.data?.app.description}
                disabled={!published}
                ask={(question) => void send(question)}
              />
            </>
          ) : null}
          {runs.map((run) => (
            <RunTurn key={run.id} runId={run.id} runLink={`${base}/runs/${run.id}`} canDecide={run.id === latestRunId} />
          ))}
          {startedRunId && !runs.some((run) => run.id === startedRunId) ? (
            <RunTurn runId={startedRunId} runLink={`${base}/runs/${startedRunId}`} canDecide />
          ) : null}
          <Composer
            active={active}
            canEnd={active}
            send={send}
            end={() =>
              endRun(latestRunId ?? '').then(() => queryClient.invalidateQueries({ queryKey: queryKeys.runView(latestRunId) }))
            }
          />
        </section>
        {latestRunId ? (
          <div className="chat-side">
            <LiveProgress stream={stream} />
            <CrashWorkerCard spaceId={spaceId} runId={latestRunId} />
          </div>
        ) : null}
      </div>
    </>
  );
}
