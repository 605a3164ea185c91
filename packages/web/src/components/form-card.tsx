import type { FormEvent, ReactNode, RefObject } from 'react';
import { useT } from '../i18n/index.js';
import { TextField } from './field.js';
import type { FormRequest } from './form-errors.js';
import { ProblemAlert } from './problem-alert.js';

/**
 * A card with one form that creates something (an app, a resource, a connection): its heading
 * (which names the card for screen readers), the fields, the server's refusal, and the submit
 * button, disabled while the request runs. Validation is the page's (`noValidate`: the fields say
 * what is wrong in words, not the browser's bubbles).
 */
export function FormCard({
  id,
  title,
  checks,
  onSubmit,
  submitLabel,
  inline = false,
  children,
}: {
  id: string;
  title: ReactNode;
  /** The form's checks and the request it sends (`useFormChecks`): its refusal is shown, and the button waits while it runs. */
  checks: { form: RefObject<HTMLFormElement | null>; request: FormRequest };
  /** Called on submit (the browser's own submission is prevented). */
  onSubmit: () => void;
  submitLabel: ReactNode;
  /** Fields and button on one line (a short form); the refusal then stands below the line. */
  inline?: boolean;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  const { request } = checks;
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <form ref={checks.form} onSubmit={submit} noValidate className={inline ? 'inline-form' : undefined}>
        {children}
        {inline ? null : <ProblemAlert problem={request.error} />}
        <button type="submit" className="button-primary" disabled={request.isPending}>
          {submitLabel}
        </button>
      </form>
      {inline ? <ProblemAlert problem={request.error} /> : null}
    </section>
  );
}

/** The name (checked, with its error) and the description of something new, side by side, and any fields after them. */
export function NameAndDescription({
  nameLabel,
  name,
  onName,
  nameError,
  description,
  onDescription,
  children,
}: {
  nameLabel?: string;
  name: string;
  onName: (name: string) => void;
  nameError: string | undefined;
  description: string;
  onDescription: (description: string) => void;
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <div className="form-grid">
      <TextField label={nameLabel ?? t('common.name')} value={name} onValue={onName} error={nameError} />
      <TextField label={t('common.description')} value={description} onValue={onDescription} />
      {children}
    </div>
  );
}
