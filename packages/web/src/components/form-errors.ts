import { useRef, useState } from 'react';
import { ApiProblem } from '../api/index.js';

/** Field messages of a form: keyed by the field's API path. */
export type FieldErrors = Record<string, string | undefined>;

/**
 * The message for one field: the form's own check first, then what the server said about that
 * path, so a refused value is always explained at its field.
 */
export function fieldMessage(local: FieldErrors, problem: unknown, path: string): string | undefined {
  if (local[path]) return local[path];
  return problem instanceof ApiProblem ? problem.fieldError(path) : undefined;
}

/** Whether a form's own checks found anything. */
export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/** Moves focus to the first control marked invalid inside a form (after a refused submit). */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

/**
 * A form's own checks: the messages to show at the fields, the form element, and `accept(found)`,
 * which shows what the checks found and answers whether the form may be sent (when not, the first
 * refused field takes focus). `valid` adds a check that has no field of its own.
 */
export function useFieldChecks() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const accept = (found: FieldErrors, valid = true): boolean => {
    setErrors(found);
    if (!hasErrors(found) && valid) return true;
    focusFirstInvalid(form.current);
    return false;
  };
  return { errors, form, accept };
}

/** What a form sends: its refusal is shown at the fields, and the submit button waits while it runs. */
export interface FormRequest {
  error: unknown;
  isPending: boolean;
}

/**
 * `useFieldChecks` bound to the request the form sends: `at(path)` is the message for one field
 * (the form's own check, else what the server said about that path), and the whole object is what
 * `FormCard` takes as `checks`.
 */
export function useFormChecks(request: FormRequest) {
  const checks = useFieldChecks();
  const at = (path: string) => fieldMessage(checks.errors, request.error, path);
  return { ...checks, request, at };
}
