import { useIntl } from 'react-intl';
import { ApiProblem } from '../api/index.js';
import { problemMessage, useT } from '../i18n/index.js';

/**
 * Shows a failed call: the message of its stable code in the user's language (the server's own
 * message for a code the catalogues do not know) and the code, announced to screen readers.
 * Nothing is swallowed: an unexpected error is shown with its own message.
 */
export function ProblemAlert({ problem, title }: { problem: unknown; title?: string }) {
  const intl = useIntl();
  const t = useT();
  if (!problem) return null;
  const message = problemMessage(intl, problem);
  const code = problem instanceof ApiProblem ? problem.code : undefined;
  return (
    <div className="alert alert-error" role="alert">
      <strong>{title ?? t('problem.defaultTitle')}</strong> {message}
      {code ? <span className="alert-code"> ({code})</span> : null}
    </div>
  );
}

/** A polite, non-blocking confirmation (e.g. "Saved."). */
export function Notice({ children }: { children: React.ReactNode }) {
  return (
    <output className="alert alert-success" aria-live="polite">
      {children}
    </output>
  );
}
