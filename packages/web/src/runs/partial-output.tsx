import { useT } from '../i18n/index.js';
import type { RunDescriptionView } from './run-types.js';

/**
 * What a run that did not succeed had produced (P-8.10): the results of the tasks and tool calls
 * that finished, under a heading that says it is unfinished. Nothing is spliced into an answer.
 */
export function PartialOutput({ view }: { view: RunDescriptionView }) {
  const t = useT();
  const agent = view.agent;
  const pieces: { key: string; label: string; text: string }[] = [];
  for (const task of agent?.tasks ?? [])
    if (task.outcome?.output)
      pieces.push({
        key: task.taskId,
        label: t('partial.task', { role: task.role, taskId: task.taskId }),
        text: task.outcome.output,
      });
  for (const operation of agent?.operations ?? [])
    if (operation.status === 'succeeded' && operation.content)
      pieces.push({
        key: operation.operationId,
        label: t('partial.tool', { toolName: operation.toolName }),
        text: operation.content,
      });
  return (
    <section className="partial-output" aria-label={t('partial.region')}>
      <p>
        <span className="badge badge-warn">{t('turn.unfinished')}</span> {t('partial.ended')}
        {pieces.length === 0 ? t('partial.none') : t('partial.some')}
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
