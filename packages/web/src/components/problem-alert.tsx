import { ApiProblem } from '../api/index.js';

/**
 * Shows a failed call: the server's message and its stable code, announced to screen readers.
 * Nothing is swallowed: an unexpected error is shown with its own message.
 */
export function ProblemAlert({ problem, title }: { problem: unknown; title?: string }) {
  if (!problem) return null;
  const message = problem instanceof Error ? problem.message : String(problem);
  const code = problem instanceof ApiProblem ? problem.code : undefined;
  return (
    <div className="alert alert-error" role="alert">
      <strong>{title ?? 'The server refused this.'}</strong> {message}
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
