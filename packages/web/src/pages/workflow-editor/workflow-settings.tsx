import { useState } from 'react';
import type { Schema } from '../../api/index.js';
import { SelectField, TextField } from '../../components/index.js';
import { type MessageId, useT } from '../../i18n/index.js';
import { stateFieldsOf, type WorkflowDraft, withNodes } from './draft-model.js';
import { newInputNode } from './flow-model.js';
import { mcpBindingNameOf } from './mcp-tool-fields.js';
import { bindingNameOf, nodeNameProblem } from './node-names.js';
import type { TopologyKind } from './team-model.js';
import { AddTeamFields, TeamKindOption, withNewTeamNode } from './team-node-fields.js';

type App = Schema<'App'>;
type Resource = Schema<'Resource'>;

/**
 * Adds a node: an agent node calling a published agent app, a tool node calling one of the
 * space's HTTP tools or MCP servers, or a team node of a topology (members picked in its panel);
 * the name it is bound under is the app's, tool's or server's name (a team's: the node's). An
 * MCP server's node gets its tool chosen in the side panel (from the server's listing).
 */
export function AddNodeForm({
  draft,
  agentApps,
  tools,
  mcpServers,
  onChange,
  onAdded,
}: {
  draft: WorkflowDraft;
  agentApps: readonly App[];
  tools: readonly Resource[];
  mcpServers: readonly Resource[];
  onChange: (change: (draft: WorkflowDraft) => WorkflowDraft) => void;
  onAdded: (name: string) => void;
}) {
  const t = useT();
  const [kind, setKind] = useState<'agent' | 'capability' | 'team' | 'input'>('agent');
  const [topology, setTopology] = useState<TopologyKind>('handoff');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [error, setError] = useState<MessageId | undefined>();
  const choices = kind === 'agent' ? agentApps : tools;
  return (
    <form
      className="card flow-panel"
      aria-labelledby="add-node-heading"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (kind === 'team' || kind === 'input') {
          const problem = nodeNameProblem(draft, name.trim());
          setError(problem);
          if (problem) return;
          const nodeName = name.trim();
          // An input node asks a person (issue 36): it binds nothing; its question is written in its panel.
          onChange((current) =>
            kind === 'team'
              ? withNewTeamNode(current, nodeName, topology)
              : withNodes(current, [
                  ...(Array.isArray(current.definition.nodes) ? current.definition.nodes : []),
                  newInputNode(nodeName),
                ]),
          );
          setName('');
          onAdded(nodeName);
          return;
        }
        const problem: MessageId | undefined =
          nodeNameProblem(draft, name.trim()) ?? (target ? undefined : 'workflow.add.targetMissing');
        setError(problem);
        if (problem) return;
        const nodeName = name.trim();
        const server = kind === 'capability' ? mcpServers.find((choice) => `mcp:${choice.id}` === target) : undefined;
        if (server) {
          const bound = mcpBindingNameOf(server);
          onChange((current) => {
            const nodes = Array.isArray(current.definition.nodes) ? current.definition.nodes : [];
            const next = withNodes(current, [...nodes, { name: nodeName, kind, server: bound }]);
            const mcp = { ...next.bindings.mcpServers, [bound]: { resourceId: server.id } };
            return { ...next, bindings: { ...next.bindings, mcpServers: mcp } };
          });
          setName('');
          setTarget('');
          onAdded(nodeName);
          return;
        }
        const chosen = choices.find((choice) => choice.id === target);
        const bound = bindingNameOf(chosen?.name ?? target);
        onChange((current) => {
          const nodes = Array.isArray(current.definition.nodes) ? current.definition.nodes : [];
          const next = withNodes(current, [
            ...nodes,
            kind === 'agent' ? { name: nodeName, kind, agent: bound } : { name: nodeName, kind, tool: bound },
          ]);
          return kind === 'agent'
            ? { ...next, bindings: { ...next.bindings, agents: { ...next.bindings.agents, [bound]: { appId: target } } } }
            : { ...next, bindings: { ...next.bindings, tools: { ...next.bindings.tools, [bound]: { resourceId: target } } } };
        });
        setName('');
        setTarget('');
        onAdded(nodeName);
      }}
    >
      <h2 id="add-node-heading">{t('workflow.add.heading')}</h2>
      <SelectField
        label={t('workflow.add.kind')}
        value={kind}
        onChange={(event) => {
          setKind(event.target.value as 'agent' | 'capability' | 'team' | 'input');
          setTarget('');
        }}
      >
        <option value="agent">{t('workflow.add.agent')}</option>
        <option value="capability">{t('workflow.add.tool')}</option>
        <TeamKindOption />
        <option value="input">{t('flow.add.input')}</option>
      </SelectField>
      <TextField label={t('workflow.add.name')} value={name} onValue={setName} error={error ? t(error, { kind }) : undefined} />
      {kind === 'input' ? null : kind === 'team' ? (
        <AddTeamFields kind={topology} onKind={setTopology} />
      ) : (
        <SelectField
          label={kind === 'agent' ? t('workflow.add.agentTarget') : t('workflow.add.toolTarget')}
          value={target}
          onValue={setTarget}
        >
          <option value="">{t('workflow.add.choose')}</option>
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
              {'latestReleaseId' in choice && !choice.latestReleaseId ? t('workflow.notPublished') : ''}
            </option>
          ))}
          {kind === 'capability' && mcpServers.length > 0 ? (
            <optgroup label={t('workflow.add.mcpServers')}>
              {mcpServers.map((server) => (
                <option key={server.id} value={`mcp:${server.id}`}>
                  {t('workflow.add.mcpServer', { name: server.name })}
                </option>
              ))}
            </optgroup>
          ) : null}
        </SelectField>
      )}
      <button type="submit">{t('workflow.add.submit')}</button>
    </form>
  );
}

const types = ['string', 'number', 'boolean', 'object', 'array'] as const;

/** The shared state (its fields, their reducers and types) and the workflow's output fields. */
export function StateFieldsForm({
  draft,
  readOnly,
  onChange,
}: {
  draft: WorkflowDraft;
  readOnly: boolean;
  onChange: (change: (draft: WorkflowDraft) => WorkflowDraft) => void;
}) {
  const t = useT();
  const fields = stateFieldsOf(draft.definition);
  const [name, setName] = useState('');
  const [reducer, setReducer] = useState<'last-value' | 'append'>('last-value');
  const [type, setType] = useState<(typeof types)[number]>('string');
  const [error, setError] = useState<MessageId | undefined>();
  const output = Array.isArray(draft.definition.output) ? (draft.definition.output as string[]) : [];
  const [outputText, setOutputText] = useState(output.join(', '));
  const setState = (state: Record<string, unknown>) =>
    onChange((current) => ({ ...current, definition: { ...current.definition, state } }));
  return (
    <section className="card flow-panel" aria-labelledby="state-heading">
      <h2 id="state-heading">{t('workflow.state.heading')}</h2>
      <ul className="flow-state-list">
        {Object.entries(fields).map(([field, spec]) => (
          <li key={field}>
            <code>{field}</code> {spec.reducer} {String(spec.schema?.type ?? '')}{' '}
            {readOnly ? null : (
              <button
                type="button"
                aria-label={t('workflow.state.remove', { field })}
                onClick={() => {
                  const { [field]: _removed, ...rest } = fields;
                  setState(rest);
                }}
              >
                {t('workflow.state.removeButton')}
              </button>
            )}
          </li>
        ))}
        {Object.keys(fields).length === 0 ? <li>{t('workflow.state.empty')}</li> : null}
      </ul>
      {readOnly ? null : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const field = name.trim();
            const problem: MessageId | undefined = !field
              ? 'workflow.state.nameMissing'
              : Object.hasOwn(fields, field)
                ? 'workflow.state.exists'
                : undefined;
            setError(problem);
            if (problem) return;
            setState({ ...fields, [field]: { reducer, schema: { type } } });
            setName('');
          }}
        >
          <TextField label={t('workflow.state.name')} value={name} onValue={setName} error={error ? t(error) : undefined} />
          <SelectField
            label={t('workflow.state.reducer')}
            value={reducer}
            onChange={(event) => setReducer(event.target.value as 'last-value' | 'append')}
          >
            <option value="last-value">{t('workflow.state.lastValue')}</option>
            <option value="append">{t('workflow.state.append')}</option>
          </SelectField>
          <SelectField
            label={t('workflow.state.type')}
            value={type}
            onChange={(event) => setType(event.target.value as (typeof types)[number])}
          >
            {types.map((item) => (
              <option key={item} value={item}>
                {item}
              </option>
            ))}
          </SelectField>
          <button type="submit">{t('workflow.state.add')}</button>
        </form>
      )}
      <TextField
        label={t('workflow.output.label')}
        value={outputText}
        readOnly={readOnly}
        hint={t('workflow.output.hint')}
        onChange={(event) => {
          setOutputText(event.target.value);
          const list = event.target.value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean);
          onChange((current) => {
            const { output: _old, ...rest } = current.definition;
            return { ...current, definition: list.length > 0 ? { ...rest, output: list } : rest };
          });
        }}
      />
    </section>
  );
}
