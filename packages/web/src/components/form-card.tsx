import type { FormEvent, ReactNode, RefObject } from 'react';
import { useT } from '../i18n/index.js';
import { TextField } from './field.js';
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
  formRef,
  onSubmit,
  mutation,
  submitLabel,
  inline = false,
  children,
}: {
  id: string;
  title: ReactNode;
  formRef?: RefObject<HTMLFormElement | null>;
  onSubmit: (event: FormEvent) => void;
  /** The request the form sends: its refusal is shown, and the button waits while it runs. */
  mutation: { error: unknown; isPending: boolean };
  submitLabel: ReactNode;
  /** Fields and button on one line (a short form); the refusal then stands below the line. */
  inline?: boolean;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <form ref={formRef} onSubmit={onSubmit} noValidate className={inline ? 'inline-form' : undefined}>
        {children}
        {inline ? null : <ProblemAlert problem={mutation.error} />}
        <button type="submit" className="button-primary" disabled={mutation.isPending}>
          {submitLabel}
        </button>
      </form>
      {inline ? <ProblemAlert problem={mutation.error} /> : null}
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
      <TextField
        label={nameLabel ?? t('common.name')}
        value={name}
        onChange={(event) => onName(event.target.value)}
        error={nameError}
      />
      <TextField label={t('common.description')} value={description} onChange={(event) => onDescription(event.target.value)} />
      {children}
    </div>
  );
}
