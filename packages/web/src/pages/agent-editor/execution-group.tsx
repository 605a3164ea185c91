import { CheckboxField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { CodeOrchestrationField } from './code-orchestration-field.js';
import { platformDefaults } from './draft-state.js';
import { useEditor } from './editor-context.js';
import { DraftNumberField } from './number-field.js';

/**
 * Execution (P-4.2): loop budget, run timeout, per-call timeout, parallel switch, executor
 * parallelism (Plan–Executor only; setting it does not switch parallelism on, P-4.8), retry, and
 * code-orchestrated tool calls (N-15).
 */
export function ExecutionGroup() {
  const { draft, update, mode, readOnly } = useEditor();
  const t = useT();
  const execution = draft.execution;
  const setExecution = (change: Partial<typeof execution>) =>
    update((current) => ({ ...current, execution: { ...current.execution, ...change } }));
  const setRetry = (change: Partial<NonNullable<typeof execution.retry>>) =>
    setExecution({ retry: { ...execution.retry, ...change } });
  return (
    <>
      <div className="form-grid">
        <DraftNumberField
          label={t('execution.loopBudget')}
          path="execution.maxLoops"
          value={execution.maxLoops}
          defaultShown={String(platformDefaults.maxLoops)}
          onChange={(maxLoops) => setExecution({ maxLoops })}
        />
        <DraftNumberField
          label={t('execution.runTimeout')}
          path="execution.timeoutMs"
          value={execution.timeoutMs}
          defaultShown={t('execution.oneHour', { ms: platformDefaults.timeoutMs })}
          onChange={(timeoutMs) => setExecution({ timeoutMs })}
        />
        <DraftNumberField
          label={t('execution.toolTimeout')}
          path="execution.toolTimeoutMs"
          value={execution.toolTimeoutMs}
          defaultShown={t('execution.tenSeconds', { ms: platformDefaults.toolTimeoutMs })}
          onChange={(toolTimeoutMs) => setExecution({ toolTimeoutMs })}
        />
        <CheckboxField
          label={t('execution.parallelTools')}
          checked={execution.parallel ?? platformDefaults.parallel}
          disabled={readOnly}
          hint={t('execution.defaultOff')}
          onChange={(event) => setExecution({ parallel: event.target.checked })}
        />
        {mode === 'plan-executor' ? (
          <DraftNumberField
            label={t('execution.parallelExecutors')}
            path="execution.maxParallelExecutors"
            value={execution.maxParallelExecutors}
            defaultShown={String(platformDefaults.maxParallelExecutors)}
            onChange={(maxParallelExecutors) => setExecution({ maxParallelExecutors })}
          />
        ) : null}
        <CheckboxField
          label={t('execution.retry')}
          checked={execution.retry?.enabled ?? platformDefaults.retryEnabled}
          disabled={readOnly}
          hint={t('execution.defaultOff')}
          onChange={(event) => setRetry({ enabled: event.target.checked })}
        />
        <DraftNumberField
          label={t('execution.attempts')}
          path="execution.retry.attempts"
          value={execution.retry?.attempts}
          defaultShown={String(platformDefaults.retryAttempts)}
          onChange={(attempts) => setRetry({ attempts })}
        />
        <DraftNumberField
          label={t('execution.retryInterval')}
          path="execution.retry.waitMs"
          value={execution.retry?.waitMs}
          defaultShown={t('execution.twoSeconds', { ms: platformDefaults.retryWaitMs })}
          onChange={(waitMs) => setRetry({ waitMs })}
        />
      </div>
      <CodeOrchestrationField />
    </>
  );
}
