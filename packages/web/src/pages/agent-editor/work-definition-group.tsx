import { TextAreaField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { CapabilitiesPicker } from './capabilities-picker.js';
import { noCapabilities } from './draft-state.js';
import { useEditor } from './editor-context.js';
import { PromptSourceField } from './prompt-source-field.js';

/** Variables as `name=value` lines (the editor's text form of the draft's `variables`). */
function variablesText(variables: Record<string, string>): string {
  return Object.entries(variables)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');
}

function parseVariables(text: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    variables[(at < 0 ? line : line.slice(0, at)).trim()] = at < 0 ? '' : line.slice(at + 1);
  }
  return variables;
}

/**
 * Work definition (P-4.2): the prompt and its variables. A ReAct agent has one prompt and one
 * capability selection; a Plan–Executor agent sets them on the planner (executors have their own).
 */
export function WorkDefinitionGroup() {
  const { draft, update, mode, readOnly, issueAt } = useEditor();
  const t = useT();
  return (
    <>
      {mode === 'react' ? (
        <>
          <PromptSourceField
            legend={t('work.prompt')}
            path="prompt"
            value={draft.prompt}
            onChange={(prompt) => update((current) => ({ ...current, prompt }))}
          />
          <CapabilitiesPicker
            title={t('work.capabilities')}
            path="capabilities"
            value={draft.capabilities}
            onChange={(capabilities) => update((current) => ({ ...current, capabilities }))}
          />
        </>
      ) : (
        <>
          {issueAt('planner') ? <p className="field-error">{issueAt('planner')}</p> : null}
          <PromptSourceField
            legend={t('work.plannerPrompt')}
            path="planner.prompt"
            value={draft.planner?.prompt}
            onChange={(prompt) =>
              update((current) => {
                if (!prompt) return { ...current, planner: undefined };
                return { ...current, planner: { capabilities: current.planner?.capabilities ?? noCapabilities(), prompt } };
              })
            }
          />
          {draft.planner ? (
            <CapabilitiesPicker
              title={t('work.plannerCapabilities')}
              path="planner.capabilities"
              value={draft.planner.capabilities}
              onChange={(capabilities) =>
                update((current) => (current.planner ? { ...current, planner: { ...current.planner, capabilities } } : current))
              }
            />
          ) : (
            <p className="field-hint">{t('work.plannerFirst')}</p>
          )}
        </>
      )}
      <TextAreaField
        label={t('work.variables')}
        rows={3}
        className="code"
        readOnly={readOnly}
        defaultValue={variablesText(draft.variables)}
        onBlur={(event) => update((current) => ({ ...current, variables: parseVariables(event.target.value) }))}
        hint={t('work.variablesHint')}
        error={issueAt('variables')}
      />
    </>
  );
}
