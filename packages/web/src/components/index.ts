/** The console's accessible building blocks: labelled fields, alerts, the page header and shell, the table. */

export { type Column, DataTable } from './data-table.js';
export { CheckboxField, SelectField, TextAreaField, TextField } from './field.js';
export { FormCard, NameAndDescription } from './form-card.js';
export {
  type FieldErrors,
  type FormRequest,
  fieldMessage,
  focusFirstInvalid,
  hasErrors,
  useFieldChecks,
  useFormChecks,
} from './form-errors.js';
export { PageHeader } from './page-header.js';
export { PageShell } from './page-shell.js';
export { Notice, ProblemAlert } from './problem-alert.js';
export { type TabItem, Tabs } from './tabs.js';
