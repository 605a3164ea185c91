import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';

interface FieldFrame {
  label: string;
  /** The message shown under the field when its value is refused (by the form or the server). */
  error?: string | undefined;
  /** A short help text, e.g. the platform default. */
  hint?: ReactNode;
}

/** `onValue`: the new text of the control, for the common case of a field bound to one piece of state. */
interface ValueListener {
  onValue?: ((value: string) => void) | undefined;
}

/** Chains a control's own `onChange` with `onValue` (given the control's new value). */
function changeHandler<Event extends { target: { value: string } }>(
  onChange: ((event: Event) => void) | undefined,
  onValue: ((value: string) => void) | undefined,
): ((event: Event) => void) | undefined {
  if (!onValue) return onChange;
  return (event) => {
    onChange?.(event);
    onValue(event.target.value);
  };
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
export function TextField({
  label,
  error,
  hint,
  onValue,
  ...input
}: FieldFrame & ValueListener & InputHTMLAttributes<HTMLInputElement>) {
  const ids = useFieldIds({ label, error, hint });
  return (
    <FieldShell frame={{ label, error, hint }} ids={ids}>
      <input {...input} onChange={changeHandler(input.onChange, onValue)} {...ids.controlProps} />
    </FieldShell>
  );
}

/** A labelled multi-line text box with its hint and error. */
export function TextAreaField({
  label,
  error,
  hint,
  onValue,
  ...textarea
}: FieldFrame & ValueListener & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ids = useFieldIds({ label, error, hint });
  return (
    <FieldShell frame={{ label, error, hint }} ids={ids}>
      <textarea {...textarea} onChange={changeHandler(textarea.onChange, onValue)} {...ids.controlProps} />
    </FieldShell>
  );
}

/** A labelled native select (keyboard and screen-reader behaviour come from the browser). */
export function SelectField({
  label,
  error,
  hint,
  onValue,
  children,
  ...select
}: FieldFrame & ValueListener & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  const ids = useFieldIds({ label, error, hint });
  return (
    <FieldShell frame={{ label, error, hint }} ids={ids}>
      <select {...select} onChange={changeHandler(select.onChange, onValue)} {...ids.controlProps}>
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
