import type { RunDescriptionView } from './run-types.js';

/**
 * What a run that did not succeed had produced (P-8.10): the results of the tasks and tool calls
 * that finished, under a heading that says it is unfinished. Nothing is spliced into an answer.
 */
export function PartialOutput({ view }: { view: RunDescriptionView }) {
  const agent = view.agent;
  const pieces: { key: string; label: string; text: string }[] = [];
  for (const task of agent?.tasks ?? [])
    if (task.outcome?.output)
      pieces.push({ key: task.taskId, label: `${task.role} (task ${task.taskId})`, text: task.outcome.output });
  for (const operation of agent?.operations ?? [])
    if (operation.status === 'succeeded' && operation.content)
      pieces.push({ key: operation.operationId, label: `tool ${operation.toolName}`, text: operation.content });
  return (
    <section className="partial-output" aria-label="Partial output, unfinished">
      <p>
        <span className="badge badge-warn">Unfinished</span> This run ended before a final answer.
        {pieces.length === 0 ? ' It produced no partial output.' : ' What it had produced so far:'}
      </p>
      {pieces.length > 0 ? (
        <ul className="item-list">
          {pieces.map((piece) => (
            <li key={piece.key}>
              <strong>{piece.label}:</strong> <span className="pre-wrap">{piece.text}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
