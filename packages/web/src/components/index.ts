/** The console's accessible building blocks: labelled fields, alerts, the page header. */
export { CheckboxField, SelectField, TextAreaField, TextField } from './field.js';
export { type FieldErrors, fieldMessage, focusFirstInvalid, hasErrors } from './form-errors.js';
export { PageHeader } from './page-header.js';
export { Notice, ProblemAlert } from './problem-alert.js';
