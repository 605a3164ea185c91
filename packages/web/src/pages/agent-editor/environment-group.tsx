import { CheckboxField } from '../../components/index.js';
import { useEditor } from './editor-context.js';

/** Environment (P-4.2): the persistent-sandbox switch; the file root is fixed per agent by the platform. */
export function EnvironmentGroup() {
  const { draft, update, readOnly } = useEditor();
  return (
    <>
      <CheckboxField
        label="Persistent sandbox"
        checked={draft.environment.persistentSandbox}
        disabled={readOnly}
        hint="Platform default: off. When on, the session's work directory survives between runs."
        onChange={(event) => update((current) => ({ ...current, environment: { persistentSandbox: event.target.checked } }))}
      />
      <p className="field-hint">
        The agent's file root (with <code>wiki/</code> and <code>files/</code>) is created by the platform and cannot be moved.
      </p>
    </>
  );
}
