import { useState } from 'react';
import type { Schema } from '../../api/index.js';
import { SelectField, TextField } from '../../components/index.js';
import { stateFieldsOf, type WorkflowDraft, withNodes } from './draft-model.js';
import { mcpBindingNameOf } from './mcp-tool-fields.js';
import { bindingNameOf, nodeNameProblem } from './node-panel.js';
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
  const [kind, setKind] = useState<'agent' | 'capability' | 'team'>('agent');
  const [topology, setTopology] = useState<TopologyKind>('handoff');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | undefined>();
  const choices = kind === 'agent' ? agentApps : tools;
  return (
    <form
      className="card flow-panel"
      aria-labelledby="add-node-heading"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (kind === 'team') {
          const problem = nodeNameProblem(draft, name.trim());
          setError(problem);
          if (problem) return;
          const nodeName = name.trim();
          onChange((current) => withNewTeamNode(current, nodeName, topology));
          setName('');
          onAdded(nodeName);
          return;
        }
        const problem =
          nodeNameProblem(draft, name.trim()) ?? (target ? undefined : `Choose ${kind === 'agent' ? 'an agent app' : 'a tool'}.`);
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
      <h2 id="add-node-heading">Add a node</h2>
      <SelectField
        label="Node kind"
        value={kind}
        onChange={(event) => {
          setKind(event.target.value as 'agent' | 'capability' | 'team');
          setTarget('');
        }}
      >
        <option value="agent">Agent (a published agent app)</option>
        <option value="capability">Tool (an HTTP or MCP tool)</option>
        <TeamKindOption />
      </SelectField>
      <TextField label="Node name" value={name} onChange={(event) => setName(event.target.value)} error={error} />
      {kind === 'team' ? (
        <AddTeamFields kind={topology} onKind={setTopology} />
      ) : (
        <SelectField
          label={kind === 'agent' ? 'Agent app to call' : 'Tool to call'}
          value={target}
          onChange={(event) => setTarget(event.target.value)}
        >
          <option value="">(choose)</option>
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
              {'latestReleaseId' in choice && !choice.latestReleaseId ? ' (not published)' : ''}
            </option>
          ))}
          {kind === 'capability' && mcpServers.length > 0 ? (
            <optgroup label="MCP servers">
              {mcpServers.map((server) => (
                <option key={server.id} value={`mcp:${server.id}`}>
                  {server.name} (MCP server)
                </option>
              ))}
            </optgroup>
          ) : null}
        </SelectField>
      )}
      <button type="submit">Add node</button>
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
  const fields = stateFieldsOf(draft.definition);
  const [name, setName] = useState('');
  const [reducer, setReducer] = useState<'last-value' | 'append'>('last-value');
  const [type, setType] = useState<(typeof types)[number]>('string');
  const [error, setError] = useState<string | undefined>();
  const output = Array.isArray(draft.definition.output) ? (draft.definition.output as string[]) : [];
  const [outputText, setOutputText] = useState(output.join(', '));
  const setState = (state: Record<string, unknown>) =>
    onChange((current) => ({ ...current, definition: { ...current.definition, state } }));
  return (
    <section className="card flow-panel" aria-labelledby="state-heading">
      <h2 id="state-heading">State</h2>
      <ul className="flow-state-list">
        {Object.entries(fields).map(([field, spec]) => (
          <li key={field}>
            <code>{field}</code> {spec.reducer} {String(spec.schema?.type ?? '')}{' '}
            {readOnly ? null : (
              <button
                type="button"
                aria-label={`Remove state field ${field}`}
                onClick={() => {
                  const { [field]: _removed, ...rest } = fields;
                  setState(rest);
                }}
              >
                Remove
              </button>
            )}
          </li>
        ))}
        {Object.keys(fields).length === 0 ? <li>No state field yet.</li> : null}
      </ul>
      {readOnly ? null : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const field = name.trim();
            const problem = !field
              ? 'Give the field a name.'
              : Object.hasOwn(fields, field)
                ? 'This field exists already.'
                : undefined;
            setError(problem);
            if (problem) return;
            setState({ ...fields, [field]: { reducer, schema: { type } } });
            setName('');
          }}
        >
          <TextField label="State field name" value={name} onChange={(event) => setName(event.target.value)} error={error} />
          <SelectField
            label="Reducer"
            value={reducer}
            onChange={(event) => setReducer(event.target.value as 'last-value' | 'append')}
          >
            <option value="last-value">last-value (keeps the last write)</option>
            <option value="append">append (collects every write)</option>
          </SelectField>
          <SelectField label="Type" value={type} onChange={(event) => setType(event.target.value as (typeof types)[number])}>
            {types.map((item) => (
              <option key={item} value={item}>
                {item}
              </option>
            ))}
          </SelectField>
          <button type="submit">Add state field</button>
        </form>
      )}
      <TextField
        label="Workflow output (comma-separated state fields)"
        value={outputText}
        readOnly={readOnly}
        hint="Empty: the whole state is the output."
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
