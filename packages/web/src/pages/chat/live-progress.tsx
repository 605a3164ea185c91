import { type AgentRunEvent, progressOf, type RunStream } from '../../runs/index.js';

const connectionWords = {
  connecting: 'Connecting to the run…',
  live: 'Live.',
  're-attaching': 'Connection lost: re-attaching…',
  ended: 'The run has ended; its event stream is closed.',
} as const;

/**
 * The lifecycle of the current run from its event stream (P-8.8: low-frequency events, no
 * character streaming): loops, model calls, tool calls and executor tasks, and the state of the
 * connection, including a re-attach after a drop or a reload (with the sequence it resumed after).
 */
export function LiveProgress({ stream }: { stream: RunStream<AgentRunEvent> }) {
  const progress = progressOf(stream.events);
  return (
    <section className="card live-progress" aria-labelledby="progress-title">
      <h2 id="progress-title">Progress</h2>
      <p className="connection" aria-live="polite">
        <span className={`dot dot-${stream.connection}`} aria-hidden="true" /> {connectionWords[stream.connection]}
        {stream.reattachments > 0 && stream.connection !== 'connecting'
          ? ` Re-attached ${stream.reattachments === 1 ? 'once' : `${stream.reattachments} times`}, after event #${stream.resumedAfter}.`
          : ''}
        {progress.stopRequested && !progress.finished ? ' Ending: calls in flight settle first.' : ''}
      </p>
      <dl className="facts">
        <dt>Loops</dt>
        <dd data-testid="progress-loops">{progress.loopsUsed}</dd>
        <dt>Model calls</dt>
        <dd>{progress.modelCalls}</dd>
        <dt>Events</dt>
        <dd>{stream.events.length}</dd>
      </dl>
      {progress.fallbacks.length > 0 ? (
        <>
          <h3>Model fallbacks</h3>
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
          <h3>Tool calls</h3>
          <ul className="item-list">
            {progress.tools.map((tool) => (
              <li key={tool.operationId}>
                <code>{tool.toolName}</code> — {tool.status}
                {tool.attempt > 1 ? ` (attempt ${tool.attempt})` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {progress.executors.length > 0 ? (
        <>
          <h3>Executor tasks</h3>
          <ul className="item-list">
            {progress.executors.map((task) => (
              <li key={task.taskId}>
                {task.role} <code>{task.taskId}</code> — {task.status}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
