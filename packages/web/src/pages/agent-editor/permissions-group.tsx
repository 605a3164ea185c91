import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import type { Schema } from '../../api/index.js';
import { SelectField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { ArgumentPatterns } from './argument-patterns.js';
import { useEditor } from './editor-context.js';

type Permissions = Schema<'Permissions'>;
type PermissionRule = Schema<'PermissionRule'>;
type Decision = PermissionRule['decision'];

const decisions = [
  { value: 'allow', label: 'permissions.allow' },
  { value: 'ask', label: 'permissions.ask' },
  { value: 'deny', label: 'permissions.deny' },
] as const satisfies readonly { value: Decision; label: string }[];

/**
 * Permissions (P-4.2): deny / ask / allow rules for the agent's tool calls (executors are bound by
 * them too) and the decision when no rule matches. `ask` pauses the call until someone approves
 * or denies it on the chat page. A rule may also match on argument patterns. Problems (a refused
 * pattern, a repeated rule) stand at the rule.
 */
export function PermissionsGroup() {
  const t = useT();
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
        <FormattedMessage
          id="permissions.intro"
          values={{ code: (text) => <code>{text}</code>, strong: (text) => <strong>{text}</strong> }}
        />
      </p>
      <datalist id={listId}>
        {toolNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {permissions.rules.length === 0 ? <p>{t('permissions.none')}</p> : null}
      {permissions.rules.map((rule, index) => {
        const number = index + 1;
        const ruleProblem = issueAt(`permissions.rules.${index}`);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id; their position is their identity while editing.
          <fieldset className="fieldset" key={index}>
            <legend>{t('permissions.rule', { number })}</legend>
            <div className="form-grid">
              <TextField
                label={t('permissions.tool', { number })}
                list={listId}
                readOnly={readOnly}
                value={rule.tool}
                hint={t('permissions.toolHint')}
                error={issueAt(`permissions.rules.${index}.tool`)}
                onChange={(event) => setRule(index, { tool: event.target.value })}
              />
              <SelectField
                label={t('permissions.decision', { number })}
                disabled={readOnly}
                value={rule.decision}
                error={issueAt(`permissions.rules.${index}.decision`)}
                onChange={(event) => setRule(index, { decision: event.target.value as Decision })}
              >
                {decisions.map((decision) => (
                  <option key={decision.value} value={decision.value}>
                    {t(decision.label)}
                  </option>
                ))}
              </SelectField>
              <TextField
                label={t('permissions.reason', { number })}
                readOnly={readOnly}
                value={rule.reason ?? ''}
                hint={t('permissions.reasonHint')}
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
                {t('permissions.remove', { number })}
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
            {t('permissions.add')}
          </button>
        </div>
      )}
      <SelectField
        label={t('permissions.default')}
        disabled={readOnly}
        value={permissions.default}
        hint={t('permissions.defaultHint')}
        error={issueAt('permissions.default')}
        onChange={(event) => setPermissions((current) => ({ ...current, default: event.target.value as Decision }))}
      >
        {decisions.map((decision) => (
          <option key={decision.value} value={decision.value}>
            {t(decision.label)}
          </option>
        ))}
      </SelectField>
    </>
  );
}
