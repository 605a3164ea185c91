import { useId } from 'react';
import type { Schema } from '../../api/index.js';
import { SelectField, TextField } from '../../components/index.js';
import { ArgumentPatterns } from './argument-patterns.js';
import { useEditor } from './editor-context.js';

type Permissions = Schema<'Permissions'>;
type PermissionRule = Schema<'PermissionRule'>;
type Decision = PermissionRule['decision'];

const decisions: { value: Decision; label: string }[] = [
  { value: 'allow', label: 'Allow' },
  { value: 'ask', label: 'Ask a person first' },
  { value: 'deny', label: 'Deny' },
];

/**
 * Permissions (P-4.2): deny / ask / allow rules for the agent's tool calls (executors are bound by
 * them too) and the decision when no rule matches. `ask` pauses the call until someone approves
 * or denies it on the chat page. A rule may also match on argument patterns. Problems (a refused
 * pattern, a repeated rule) stand at the rule.
 */
export function PermissionsGroup() {
  const { draft, update, readOnly, issueAt, resources, builtInTools } = useEditor();
  const listId = useId();
  const permissions: Permissions = draft.permissions ?? { rules: [], default: 'allow' };
  const setPermissions = (change: (current: Permissions) => Permissions) =>
    update((current) => ({ ...current, permissions: change(current.permissions ?? { rules: [], default: 'allow' }) }));
  const setRule = (index: number, change: Partial<PermissionRule>) =>
    setPermissions((current) => ({
      ...current,
      rules: current.rules.map((rule, at) => (at === index ? { ...rule, ...change } : rule)),
    }));
  const toolNames = [
    ...new Set([
      ...resources.filter((resource) => resource.type === 'tool').map((resource) => resource.name),
      ...builtInTools.map((tool) => tool.name),
    ]),
  ];
  return (
    <>
      <p className="field-hint">
        A rule matches calls of a tool by name (<code>*</code> and <code>?</code> are wildcards), and by argument patterns if it
        has any. When several rules match a call, deny beats ask beats allow. <strong>Ask</strong> pauses the call until someone
        approves or denies it on the chat page.
      </p>
      <datalist id={listId}>
        {toolNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {permissions.rules.length === 0 ? <p>No rule yet: every tool call follows the decision below.</p> : null}
      {permissions.rules.map((rule, index) => {
        const number = index + 1;
        const ruleProblem = issueAt(`permissions.rules.${index}`);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id; their position is their identity while editing.
          <fieldset className="fieldset" key={index}>
            <legend>Rule {number}</legend>
            <div className="form-grid">
              <TextField
                label={`Rule ${number}: tool`}
                list={listId}
                readOnly={readOnly}
                value={rule.tool}
                hint="A tool name or a pattern such as lookup_*."
                error={issueAt(`permissions.rules.${index}.tool`)}
                onChange={(event) => setRule(index, { tool: event.target.value })}
              />
              <SelectField
                label={`Rule ${number}: decision`}
                disabled={readOnly}
                value={rule.decision}
                error={issueAt(`permissions.rules.${index}.decision`)}
                onChange={(event) => setRule(index, { decision: event.target.value as Decision })}
              >
                {decisions.map((decision) => (
                  <option key={decision.value} value={decision.value}>
                    {decision.label}
                  </option>
                ))}
              </SelectField>
              <TextField
                label={`Rule ${number}: reason (optional)`}
                readOnly={readOnly}
                value={rule.reason ?? ''}
                hint="Shown to whoever is asked, and in the run view."
                error={issueAt(`permissions.rules.${index}.reason`)}
                onChange={(event) => setRule(index, { reason: event.target.value || undefined })}
              />
            </div>
            <ArgumentPatterns
              ruleNumber={number}
              issuePath={`permissions.rules.${index}.arguments`}
              patterns={rule.arguments}
              onChange={(patterns) =>
                setPermissions((current) => ({
                  ...current,
                  rules: current.rules.map((other, at) => {
                    if (at !== index) return other;
                    const { arguments: _dropped, ...rest } = other;
                    return patterns ? { ...rest, arguments: patterns } : rest;
                  }),
                }))
              }
            />
            {ruleProblem ? <p className="field-error">{ruleProblem}</p> : null}
            {readOnly ? null : (
              <button
                type="button"
                className="button-danger"
                onClick={() =>
                  setPermissions((current) => ({ ...current, rules: current.rules.filter((_, at) => at !== index) }))
                }
              >
                Remove rule {number}
              </button>
            )}
          </fieldset>
        );
      })}
      {readOnly ? null : (
        <div className="button-row">
          <button
            type="button"
            onClick={() =>
              setPermissions((current) => ({ ...current, rules: [...current.rules, { tool: '', decision: 'ask' }] }))
            }
          >
            Add rule
          </button>
        </div>
      )}
      <SelectField
        label="When no rule matches"
        disabled={readOnly}
        value={permissions.default}
        hint="Platform default: allow."
        error={issueAt('permissions.default')}
        onChange={(event) => setPermissions((current) => ({ ...current, default: event.target.value as Decision }))}
      >
        {decisions.map((decision) => (
          <option key={decision.value} value={decision.value}>
            {decision.label}
          </option>
        ))}
      </SelectField>
    </>
  );
}
