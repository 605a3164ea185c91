import { useState } from 'react';
import { SelectField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { nodesOf, withEdges } from './draft-model.js';
import type { PanelContext } from './panel-context.js';
import { addEdge } from './workflow-canvas.js';

/* The side panel's edge forms: a plain edge out of the selected node, and a join into it. */

/** Adds a plain edge from the selected node (or START) to another node (or END). */
export function ConnectFields({ from, context }: { from: string; context: PanelContext }) {
  const t = useT();
  const [to, setTo] = useState('');
  const targets = [...nodesOf(context.draft.definition).map((node) => node.name), 'END'].filter((name) => name !== from);
  return (
    <form
      className="flow-inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (to) context.onChange((current) => addEdge(current, from, to));
        setTo('');
      }}
    >
      <SelectField label={t('workflow.node.connectTo', { from })} value={to} onValue={setTo}>
        <option value="">{t('workflow.node.chooseNode')}</option>
        {targets.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </SelectField>
      <button type="submit" disabled={!to}>
        {t('workflow.node.addEdge')}
      </button>
    </form>
  );
}

/** Adds a join into the selected node: it runs once all of the chosen nodes have finished. */
export function JoinFields({ to, context }: { to: string; context: PanelContext }) {
  const t = useT();
  const [sources, setSources] = useState<string[]>([]);
  const candidates = nodesOf(context.draft.definition)
    .map((node) => node.name)
    .filter((name) => name !== to);
  if (candidates.length < 2) return null;
  return (
    <form
      className="flow-inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (sources.length < 2) return;
        context.onChange((current) => {
          const edges = Array.isArray(current.definition.edges) ? current.definition.edges : [];
          return withEdges(current, [...edges, { from: sources, to }]);
        });
        setSources([]);
      }}
    >
      <fieldset className="fieldset">
        <legend>{t('workflow.node.joinInto', { to })}</legend>
        {candidates.map((name) => (
          <label key={name} className="check-row">
            <input
              type="checkbox"
              checked={sources.includes(name)}
              onChange={(event) =>
                setSources((current) => (event.target.checked ? [...current, name] : current.filter((item) => item !== name)))
              }
            />{' '}
            {name}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={sources.length < 2}>
        {t('workflow.node.addJoin')}
      </button>
    </form>
  );
}
