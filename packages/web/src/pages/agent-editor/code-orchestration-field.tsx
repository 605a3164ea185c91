import { CheckboxField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { useEditor } from './editor-context.js';
import { DraftNumberField } from './number-field.js';

/** The SDK's defaults of a script's limits (ADR 0032), shown while a limit is left empty. */
const scriptDefaults = { maxToolCalls: 50, maxOutputBytes: 1_048_576, maxMemoryMegabytes: 64 };

/**
 * The code orchestration switch (N-15, ADR 0032) of the execution group: off by default; on, the
 * model may call the agent's tools from a script, within the limits set here (empty: the SDK's
 * default). Switching it off drops the limits with it, so a draft never keeps limits of nothing.
 */
export function CodeOrchestrationField() {
  const { draft, update, readOnly, issueAt } = useEditor();
  const t = useT();
  const setting = draft.execution.codeOrchestration;
  const setLimits = (change: Partial<NonNullable<typeof setting>>) =>
    update((current) => ({
      ...current,
      execution: {
        ...current.execution,
        codeOrchestration: { enabled: true, ...current.execution.codeOrchestration, ...change },
      },
    }));
  return (
    <section className="card card-nested" aria-label={t('scripts.legend')}>
      <h3>{t('scripts.legend')}</h3>
      <CheckboxField
        label={t('scripts.enabled')}
        checked={setting?.enabled ?? false}
        disabled={readOnly}
        hint={t('scripts.hint')}
        error={issueAt('execution.codeOrchestration.enabled') ?? issueAt('execution.codeOrchestration')}
        onChange={(event) =>
          update((current) => ({
            ...current,
            execution: { ...current.execution, codeOrchestration: event.target.checked ? { enabled: true } : undefined },
          }))
        }
      />
      {setting?.enabled ? (
        <div className="form-grid">
          <DraftNumberField
            label={t('scripts.maxToolCalls')}
            path="execution.codeOrchestration.maxToolCalls"
            value={setting.maxToolCalls}
            defaultShown={String(scriptDefaults.maxToolCalls)}
            onChange={(maxToolCalls) => setLimits({ maxToolCalls })}
          />
          <DraftNumberField
            label={t('scripts.maxOutputBytes')}
            path="execution.codeOrchestration.maxOutputBytes"
            value={setting.maxOutputBytes}
            defaultShown={t('scripts.oneMebibyte', { bytes: scriptDefaults.maxOutputBytes })}
            onChange={(maxOutputBytes) => setLimits({ maxOutputBytes })}
          />
          <DraftNumberField
            label={t('scripts.maxMemoryMegabytes')}
            path="execution.codeOrchestration.maxMemoryMegabytes"
            value={setting.maxMemoryMegabytes}
            defaultShown={String(scriptDefaults.maxMemoryMegabytes)}
            onChange={(maxMemoryMegabytes) => setLimits({ maxMemoryMegabytes })}
          />
        </div>
      ) : null}
    </section>
  );
}
