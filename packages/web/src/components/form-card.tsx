import type { FormEvent, ReactNode, RefObject } from 'react';
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
  problem,
  submitLabel,
  pending,
  children,
}: {
  id: string;
  title: ReactNode;
  formRef?: RefObject<HTMLFormElement | null>;
  onSubmit: (event: FormEvent) => void;
  problem: unknown;
  submitLabel: ReactNode;
  pending: boolean;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        {children}
        <ProblemAlert problem={problem} />
        <button type="submit" className="button-primary" disabled={pending}>
          {submitLabel}
        </button>
      </form>
    </section>
  );
}

/** The name (checked, with its error) and the description of something new, side by side, and any fields after them. */
export function NameAndDescription({
  nameLabel = 'Name',
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
  return (
    <div className="form-grid">
      <TextField label={nameLabel} value={name} onChange={(event) => onName(event.target.value)} error={nameError} />
      <TextField label="Description" value={description} onChange={(event) => onDescription(event.target.value)} />
      {children}
    </div>
  );
}
