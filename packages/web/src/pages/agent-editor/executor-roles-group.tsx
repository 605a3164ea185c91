import { TextField } from '../../components/index.js';
import { CapabilitiesPicker } from './capabilities-picker.js';
import { type ExecutorRole, noCapabilities } from './draft-state.js';
import { useEditor } from './editor-context.js';
import { PromptSourceField } from './prompt-source-field.js';

function copyOf<Value>(value: Value): Value {
  return structuredClone(value);
}

/**
 * Executor roles of a Plan–Executor agent: each with its own prompt and capabilities, no model
 * choice (P-4.6). A new role may copy the planner's capabilities once (P-4.4): it gets a copy,
 * which does not follow later changes to the planner.
 */
export function ExecutorRolesGroup() {
  const { draft, update, readOnly, issueAt } = useEditor();
  const setRole = (index: number, change: Partial<ExecutorRole>) =>
    update((current) => ({
      ...current,
      executors: current.executors.map((role, at) => (at === index ? { ...role, ...change } : role)),
    }));
  const addRole = (copyPlanner: boolean) =>
    update((current) => ({
      ...current,
      executors: [
        ...current.executors,
        {
          name: `executor-${current.executors.length + 1}`,
          description: 'Does one task of the plan.',
          prompt: { text: 'Do the task you are given and report the result.' },
          capabilities: copyPlanner && current.planner ? copyOf(current.planner.capabilities) : noCapabilities(),
        },
      ],
    }));
  return (
    <>
      {issueAt('executors') ? <p className="field-error">{issueAt('executors')}</p> : null}
      {draft.executors.map((role, index) => (
        <section key={`executor-${index.toString()}`} className="card card-nested" aria-label={`Executor ${role.name}`}>
          <div className="form-grid">
            <TextField
              label={`Executor ${index + 1} name`}
              value={role.name}
              readOnly={readOnly}
              error={issueAt(`executors.${index}.name`)}
              onChange={(event) => setRole(index, { name: event.target.value })}
            />
            <TextField
              label={`Executor ${index + 1} description`}
              value={role.description}
              readOnly={readOnly}
              error={issueAt(`executors.${index}.description`)}
              onChange={(event) => setRole(index, { description: event.target.value })}
            />
          </div>
          <PromptSourceField
            legend={`Executor ${index + 1} prompt`}
            path={`executors.${index}.prompt`}
            value={role.prompt}
            onChange={(prompt) => setRole(index, { prompt: prompt ?? { text: '' } })}
          />
          <CapabilitiesPicker
            title={`Executor ${index + 1} capabilities`}
            path={`executors.${index}.capabilities`}
            value={role.capabilities}
            onChange={(capabilities) => setRole(index, { capabilities })}
          />
          {readOnly ? null : (
            <button
              type="button"
              className="button-danger"
              onClick={() => update((current) => ({ ...current, executors: current.executors.filter((_, at) => at !== index) }))}
            >
              Remove executor {index + 1}
            </button>
          )}
        </section>
      ))}
      {readOnly ? null : (
        <div className="button-row">
          <button type="button" onClick={() => addRole(false)}>
            Add executor
          </button>
          <button type="button" onClick={() => addRole(true)} disabled={!draft.planner}>
            Add executor with a copy of the planner's capabilities
          </button>
        </div>
      )}
      <p className="field-hint">Executors use the agent's model; they have no model choice.</p>
    </>
  );
}
