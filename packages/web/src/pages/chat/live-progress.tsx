import { type MessageId, useT } from '../../i18n/index.js';
import { type AgentRunEvent, progressOf, type RunStream, statusLabel } from '../../runs/index.js';

const connectionWords: Record<RunStream<AgentRunEvent>['connection'], MessageId> = {
  connecting: 'progress.connecting',
  live: 'progress.live',
  're-attaching': 'progress.reattaching',
  ended: 'progress.ended',
};

/**
 * The lifecycle of the current run from its event stream (P-8.8: low-frequency events, no
 * character streaming): loops, model calls, tool calls and executor tasks, and the state of the
 * connection, including a re-attach after a drop or a reload (with the sequence it resumed after).
 */
export function LiveProgress({ stream }: { stream: RunStream<AgentRunEvent> }) {
  const progress = progressOf(stream.events);
  const t = useT();
  return (
    <section className="card live-progress" aria-labelledby="progress-title">
      <h2 id="progress-title">{t('progress.title')}</h2>
      <p className="connection" aria-live="polite">
        <span className={`dot dot-${stream.connection}`} aria-hidden="true" /> {t(connectionWords[stream.connection])}
        {stream.reattachments > 0 && stream.connection !== 'connecting'
          ? t('progress.reattached', { count: stream.reattachments, sequence: stream.resumedAfter })
          : ''}
        {progress.stopRequested && !progress.finished ? t('progress.ending') : ''}
      </p>
      <dl className="facts">
        <dt>{t('progress.loops')}</dt>
        <dd data-testid="progress-loops">{progress.loopsUsed}</dd>
        <dt>{t('progress.modelCalls')}</dt>
        <dd>{progress.modelCalls}</dd>
        <dt>{t('progress.events')}</dt>
        <dd>{stream.events.length}</dd>
      </dl>
      {progress.fallbacks.length > 0 ? (
        <>
          <h3>{t('progress.fallbacks')}</h3>
          <ul className="item-list">
            {progress.fallbacks.map((fallback) => (
              <li key={fallback.sequence}>
                <code>{fallback.from}</code> → <code>{fallback.to}</code>: {fallback.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {progress.tools.length > 0 ? (
        <>
          <h3>{t('progress.toolCalls')}</h3>
          <ul className="item-list">
            {progress.tools.map((tool) => (
              <li key={tool.operationId}>
                <code>{tool.toolName}</code> — {statusLabel(t, tool.status)}
                {tool.attempt > 1 ? t('progress.attempt', { attempt: tool.attempt }) : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {progress.executors.length > 0 ? (
        <>
          <h3>{t('progress.executorTasks')}</h3>
          <ul className="item-list">
            {progress.executors.map((task) => (
              <li key={task.taskId}>
                {task.role} <code>{task.taskId}</code> — {statusLabel(t, task.status)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
