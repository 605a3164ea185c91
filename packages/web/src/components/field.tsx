import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';

interface FieldFrame {
  label: string;
  /** The message shown under the field when its value is refused (by the form or the server). */
  error?: string | undefined;
  /** A short help text, e.g. the platform default. */
  hint?: ReactNode;
}

/**
 * Label, control, hint and error wired together for assistive technology: the label names the
 * control, the hint and the error describe it, and `aria-invalid` marks a refused value.
 */
function useFieldIds(frame: FieldFrame) {
  const id = useId();
  const hintId = frame.hint ? `${id}-hint` : undefined;
  const errorId = frame.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return {
    id,
    hintId,
    errorId,
    controlProps: { id, 'aria-describedby': describedBy, 'aria-invalid': frame.error ? true : undefined },
  } as const;
}

function FieldShell({ frame, ids, children }: { frame: FieldFrame; ids: ReturnType<typeof useFieldIds>; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={ids.id}>{frame.label}</label>
      {children}
      {frame.hint ? (
        <p className="field-hint" id={ids.hintId}>
          {frame.hint}
        </p>
      ) : null}
      {frame.error ? (
        <p className="field-error" id={ids.errorId}>
          {frame.error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled text input with its hint and error. */
export function TextField({ label, error, hint, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const ids = useFieldIds({ label, error, hint });
  return (
    <FieldShell frame={{ label, error, hint }} ids={ids}>
      <input {...input} {...ids.controlProps} />
    </FieldShell>
  );
}

/** A labelled multi-line text box with its hint and error. */
export function TextAreaField({ label, error, hint, ...textarea }: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ids = useFieldIds({ label, error, hint });
  return (
    <FieldShell frame={{ label, error, hint }} ids={ids}>
      <textarea {...textarea} {...ids.controlProps} />
    </FieldShell>
  );
}

/** A labelled native select (keyboard and screen-reader behaviour come from the browser). */
export function SelectField({
  label,
  error,
  hint,
  children,
  ...select
}: FieldFrame & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  const ids = useFieldIds({ label, error, hint });
  return (
    <FieldShell frame={{ label, error, hint }} ids={ids}>
      <select {...select} {...ids.controlProps}>
        {children}
      </select>
    </FieldShell>
  );
}

/** A labelled checkbox (label after the box) with its hint and error. */
export function CheckboxField({ label, error, hint, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const ids = useFieldIds({ label, error, hint });
  return (
    <div className="field field-checkbox">
      <input type="checkbox" {...input} {...ids.controlProps} />
      <label htmlFor={ids.id}>{label}</label>
      {hint ? (
        <p className="field-hint" id={ids.hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={ids.errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
