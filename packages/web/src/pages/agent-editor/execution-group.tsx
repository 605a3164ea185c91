import { CheckboxField } from '../../components/index.js';
import { platformDefaults } from './draft-state.js';
import { useEditor } from './editor-context.js';
import { DraftNumberField } from './number-field.js';

/**
 * Execution (P-4.2): loop budget, run timeout, per-call timeout, parallel switch, executor
 * parallelism (Plan–Executor only; setting it does not switch parallelism on, P-4.8) and retry.
 */
export function ExecutionGroup() {
  const { draft, update, mode, readOnly } = useEditor();
  const execution = draft.execution;
  const setExecution = (change: Partial<typeof execution>) =>
    update((current) => ({ ...current, execution: { ...current.execution, ...change } }));
  const setRetry = (change: Partial<NonNullable<typeof execution.retry>>) =>
    setExecution({ retry: { ...execution.retry, ...change } });
  return (
    <div className="form-grid">
      <DraftNumberField
        label="Loop budget"
        path="execution.maxLoops"
        value={execution.maxLoops}
        defaultShown={String(platformDefaults.maxLoops)}
        onChange={(maxLoops) => setExecution({ maxLoops })}
      />
      <DraftNumberField
        label="Run timeout (ms)"
        path="execution.timeoutMs"
        value={execution.timeoutMs}
        defaultShown={`${platformDefaults.timeoutMs} (1 h)`}
        onChange={(timeoutMs) => setExecution({ timeoutMs })}
      />
      <DraftNumberField
        label="Per-call timeout for tools (ms)"
        path="execution.toolTimeoutMs"
        value={execution.toolTimeoutMs}
        defaultShown={`${platformDefaults.toolTimeoutMs} (10 s)`}
        onChange={(toolTimeoutMs) => setExecution({ toolTimeoutMs })}
      />
      <CheckboxField
        label="Run tool calls in parallel"
        checked={execution.parallel ?? platformDefaults.parallel}
        disabled={readOnly}
        hint="Platform default: off."
        onChange={(event) => setExecution({ parallel: event.target.checked })}
      />
      {mode === 'plan-executor' ? (
        <DraftNumberField
          label="Executors at most in parallel"
          path="execution.maxParallelExecutors"
          value={execution.maxParallelExecutors}
          defaultShown={String(platformDefaults.maxParallelExecutors)}
          onChange={(maxParallelExecutors) => setExecution({ maxParallelExecutors })}
        />
      ) : null}
      <CheckboxField
        label="Retry failed model calls automatically"
        checked={execution.retry?.enabled ?? platformDefaults.retryEnabled}
        disabled={readOnly}
        hint="Platform default: off."
        onChange={(event) => setRetry({ enabled: event.target.checked })}
      />
      <DraftNumberField
        label="Total attempts"
        path="execution.retry.attempts"
        value={execution.retry?.attempts}
        defaultShown={String(platformDefaults.retryAttempts)}
        onChange={(attempts) => setRetry({ attempts })}
      />
      <DraftNumberField
        label="Retry interval (ms)"
        path="execution.retry.waitMs"
        value={execution.retry?.waitMs}
        defaultShown={`${platformDefaults.retryWaitMs} (2 s)`}
        onChange={(waitMs) => setRetry({ waitMs })}
      />
    </div>
  );
}
