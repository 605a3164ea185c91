import { lazy, Suspense } from 'react';
import { useT } from '../i18n/index.js';
import type { ElicitationView } from './run-types.js';

// The form generator is loaded only when a run actually asks something (web bundle budgets).
const ElicitationForm = lazy(() => import('./elicitation-form.js').then((module) => ({ default: module.ElicitationForm })));

/** An accepted form's values as one line of `field: value` pairs, which wraps at any width. */
function contentInWords(content: Record<string, unknown>): string {
  return Object.entries(content)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ');
}

/**
 * The questions a run's MCP servers asked its user (ADR 0038), in the chat and the run view: a
 * pending one is a form generated from its requested schema with Send answer / Decline (when the
 * viewer may answer); an answered one says who answered what; one whose call ended says so.
 */
export function ElicitationRequests({
  runId,
  elicitations,
  canAnswer,
}: {
  runId: string;
  elicitations: readonly ElicitationView[];
  canAnswer: boolean;
}) {
  const t = useT();
  if (elicitations.length === 0) return null;
  return (
    <section className="approvals" aria-label={t('elicitation.region')}>
      {elicitations.map((question) => (
        <div
          key={question.elicitationId}
          className={question.status === 'pending' ? 'approval approval-waiting' : 'approval'}
          data-elicitation={question.elicitationId}
        >
          <p>
            <strong>{t('elicitation.needed', { server: question.server })}:</strong> {question.message}
          </p>
          <p className="field-hint">{t('elicitation.during', { tool: question.toolName })}</p>
          {question.status === 'answered' && question.answer ? (
            <p>
              {t('elicitation.answered', { action: question.answer.action, who: question.answer.answeredBy })}
              {question.answer.content ? <span className="pre-wrap"> — {contentInWords(question.answer.content)}</span> : null}
            </p>
          ) : question.status === 'ended' ? (
            <p>{t('elicitation.ended')}</p>
          ) : canAnswer ? (
            <Suspense fallback={<p>{t('elicitation.loading')}</p>}>
              <ElicitationForm runId={runId} question={question} />
            </Suspense>
          ) : (
            <p>{t('elicitation.waiting')}</p>
          )}
        </div>
      ))}
    </section>
  );
}
