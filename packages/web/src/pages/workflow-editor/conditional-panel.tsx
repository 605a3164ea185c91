import { SelectField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { ConditionFields } from './condition-fields.js';
import { nodesOf, stateFieldsOf } from './draft-model.js';
import {
  type BoundedLoop,
  type Condition,
  type DeclarativeRoute,
  isTarget,
  loopProblems,
  loopsOf,
  routesOf,
  serverIssuesUnder,
  setConditional,
} from './flow-model.js';
import type { PanelContext } from './panel-context.js';

/** The options of a target select: every node, then END (unless `withEnd` is false). */
function TargetOptions({ context, withEnd = true }: { context: PanelContext; withEnd?: boolean }) {
  const names = [...nodesOf(context.draft.definition).map((node) => node.name), ...(withEnd ? ['END'] : [])];
  return (
    <>
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </>
  );
}

/** The first of a route's targets (the canvas edits one target per branch; more are kept as they are). */
const firstTarget = (to: unknown): string => (Array.isArray(to) ? String(to[0] ?? '') : typeof to === 'string' ? to : '');
/** A target changed in a select: the first of a list replaced, the rest kept. */
const withFirstTarget = (to: unknown, target: string): string | string[] =>
  Array.isArray(to) ? [target, ...to.slice(1).map(String)] : target;

/**
 * A declarative route out of one node, edited on the canvas (issue 36): its branches in the order
 * they are tried — each a condition and where it goes — and where the run goes otherwise. A named
 * route (a registry function) is shown, not edited: the platform runs declarative routes only.
 */
export function RoutePanel({ index, context }: { index: number; context: PanelContext }) {
  const t = useT();
  const { draft, readOnly } = context;
  const route = routesOf(draft.definition)[index] as DeclarativeRoute | undefined;
  if (!route) return null;
  const path = `definition.routes.${index}`;
  const issues = serverIssuesUnder(context.issues, path);
  const stateFields = Object.keys(stateFieldsOf(draft.definition));
  const change = (next: DeclarativeRoute | undefined, key?: string) =>
    context.onChange((current) => setConditional(current, 'routes', index, next), key);
  if (!Array.isArray(route.when))
    return (
      <section className="card flow-panel" aria-labelledby="selection-heading">
        <h2 id="selection-heading">{t('flow.route.heading', { from: String(route.from) })}</h2>
        <p>{t('flow.route.named')}</p>
      </section>
    );
  const targetError = (value: unknown, at: string) =>
    isTarget(draft, firstTarget(value)) ? issues.get(at)?.join('; ') : t('flow.target.missing');
  return (
    <section className="card flow-panel" aria-labelledby="selection-heading" data-testid="route-panel">
      <h2 id="selection-heading">{t('flow.route.heading', { from: route.from })}</h2>
      <p className="field-hint">{t('flow.route.hint')}</p>
      {route.when.map((branch, branchIndex) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a branch is its position in the route (the order it is tried in)
        <fieldset key={`${branchIndex}/${route.when.length}`} className="fieldset flow-branch">
          <legend>{t('flow.route.branch', { number: branchIndex + 1 })}</legend>
          <ConditionFields
            condition={branch.if}
            stateFields={stateFields}
            serverIssues={serverIssuesUnder(context.issues, `${path}.when.${branchIndex}.if`)}
            readOnly={readOnly}
            onChange={(condition: Condition) =>
              change(
                { ...route, when: route.when.map((item, at) => (at === branchIndex ? { ...item, if: condition } : item)) },
                `route-${index}-${branchIndex}-if`,
              )
            }
          />
          <SelectField
            label={t('flow.route.goesTo')}
            value={firstTarget(branch.to)}
            disabled={readOnly}
            error={targetError(branch.to, `when.${branchIndex}.to`)}
            onChange={(event) =>
              change({
                ...route,
                when: route.when.map((item, at) =>
                  at === branchIndex ? { ...item, to: withFirstTarget(item.to, event.target.value) } : item,
                ),
              })
            }
          >
            <TargetOptions context={context} />
          </SelectField>
          {readOnly ? null : (
            <button
              type="button"
              onClick={() => {
                const when = route.when.filter((_, at) => at !== branchIndex);
                change(when.length === 0 ? undefined : { ...route, when });
                if (when.length === 0) context.onSelect(undefined);
              }}
            >
              {t('flow.route.removeBranch', { number: branchIndex + 1 })}
            </button>
          )}
        </fieldset>
      ))}
      <SelectField
        label={t('flow.route.otherwise')}
        value={firstTarget(route.otherwise)}
        disabled={readOnly}
        hint={t('flow.route.otherwiseHint')}
        error={targetError(route.otherwise, 'otherwise')}
        onChange={(event) => change({ ...route, otherwise: withFirstTarget(route.otherwise, event.target.value) })}
      >
        <TargetOptions context={context} />
      </SelectField>
      {readOnly ? null : (
        <button
          type="button"
          className="button-danger"
          onClick={() => {
            change(undefined);
            context.onSelect(undefined);
          }}
        >
          {t('flow.route.delete')}
        </button>
      )}
    </section>
  );
}

/**
 * A bounded loop, edited on the canvas (issue 36): after its last node (`from`) the run goes back
 * to its first (`to`) while the condition holds, at most `maxIterations` times, then on to `exit`.
 */
export function LoopPanel({ index, context }: { index: number; context: PanelContext }) {
  const t = useT();
  const { draft, readOnly } = context;
  const loop = loopsOf(draft.definition)[index] as BoundedLoop | undefined;
  if (!loop) return null;
  const path = `definition.loops.${index}`;
  const issues = serverIssuesUnder(context.issues, path);
  const problems = loopProblems(draft, loop as unknown as Record<string, unknown>);
  const errorAt = (field: string) => {
    const problem = problems.get(field);
    return problem ? t(problem.id, problem.values) : issues.get(field)?.join('; ');
  };
  const change = (next: BoundedLoop | undefined, key?: string) =>
    context.onChange((current) => setConditional(current, 'loops', index, next), key);
  const declarative = typeof loop.while === 'object' && loop.while !== null && !('function' in loop.while);
  return (
    <section className="card flow-panel" aria-labelledby="selection-heading" data-testid="loop-panel">
      <h2 id="selection-heading">{t('flow.loop.heading', { from: loop.from })}</h2>
      <p className="field-hint">{t('flow.loop.hint')}</p>
      <SelectField
        label={t('flow.loop.backTo')}
        value={loop.to}
        disabled={readOnly}
        error={errorAt('to')}
        onChange={(event) => change({ ...loop, to: event.target.value })}
      >
        <TargetOptions context={context} withEnd={false} />
      </SelectField>
      <fieldset className="fieldset">
        <legend>{t('flow.loop.while')}</legend>
        {declarative ? (
          <ConditionFields
            key={`loop-${index}`}
            condition={loop.while}
            stateFields={Object.keys(stateFieldsOf(draft.definition))}
            serverIssues={serverIssuesUnder(context.issues, `${path}.while`)}
            readOnly={readOnly}
            onChange={(condition) => change({ ...loop, while: condition }, `loop-${index}-while`)}
          />
        ) : (
          <p>{t('flow.loop.named')}</p>
        )}
      </fieldset>
      <TextField
        label={t('flow.loop.maxIterations')}
        hint={t('flow.loop.maxIterationsHint')}
        type="number"
        min={1}
        step={1}
        readOnly={readOnly}
        value={String(loop.maxIterations ?? '')}
        error={errorAt('maxIterations')}
        onChange={(event) =>
          change(
            {
              ...loop,
              maxIterations: event.target.value === '' ? (event.target.value as unknown as number) : Number(event.target.value),
            },
            `loop-${index}-bound`,
          )
        }
      />
      <SelectField
        label={t('flow.loop.exit')}
        value={loop.exit}
        disabled={readOnly}
        error={errorAt('exit')}
        onChange={(event) => change({ ...loop, exit: event.target.value })}
      >
        <TargetOptions context={context} />
      </SelectField>
      {readOnly ? null : (
        <button
          type="button"
          className="button-danger"
          onClick={() => {
            change(undefined);
            context.onSelect(undefined);
          }}
        >
          {t('flow.loop.delete')}
        </button>
      )}
    </section>
  );
}
