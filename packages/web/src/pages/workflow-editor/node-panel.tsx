import { lazy, Suspense, useState } from 'react';
import { SelectField, TextAreaField, TextField } from '../../components/index.js';
import { useT } from '../../i18n/index.js';
import { useLatestVersion } from '../../resources/index.js';
import {
  type DefinitionNode,
  edgeIndexOf,
  edgesOf,
  nodesOf,
  pruneBindings,
  stateFieldsOf,
  type WorkflowDraft,
  withNodes,
} from './draft-model.js';
import { ConnectFields, JoinFields } from './edge-fields.js';
import { conditionalOf, deleteNodeEverywhere } from './flow-model.js';
import { McpToolFields, mcpBindingNameOf } from './mcp-tool-fields.js';
import { bindingNameOf } from './node-names.js';
import type { PanelContext } from './panel-context.js';
import { removeArrows } from './workflow-canvas.js';

export { bindingNameOf, nodeNameProblem } from './node-names.js';
export type { PanelContext } from './panel-context.js';

/*
 * The route, loop and input node forms load when one is first selected (issue 36): the editor's
 * JavaScript at page load stays within the page budget (scripts/report-bundle-size.ts).
 */
const RoutePanel = lazy(() => import('./conditional-panel.js').then((module) => ({ default: module.RoutePanel })));
const LoopPanel = lazy(() => import('./conditional-panel.js').then((module) => ({ default: module.LoopPanel })));
const InputNodeFields = lazy(() => import('./input-node-fields.js').then((module) => ({ default: module.InputNodeFields })));

/** Replaces one node of the definition (by name) with `change(node)`. */
function updateNode(draft: WorkflowDraft, name: string, change: (node: DefinitionNode) => DefinitionNode): WorkflowDraft {
  const rawNodes = Array.isArray(draft.definition.nodes) ? draft.definition.nodes : [];
  return withNodes(
    draft,
    rawNodes.map((node) =>
      node && typeof node === 'object' && (node as DefinitionNode).name === name ? change(node as DefinitionNode) : node,
    ),
  );
}

/** Sets or removes one optional field of a node. */
function setField(node: DefinitionNode, field: string, value: unknown): DefinitionNode {
  const { [field]: _old, ...rest } = node;
  return (value === undefined ? rest : { ...rest, [field]: value }) as DefinitionNode;
}

/** The state field options of a select, "(none)" first. */
function StateOptions({ draft }: { draft: WorkflowDraft }) {
  const t = useT();
  return (
    <>
      <option value="">{t('workflow.none')}</option>
      {Object.keys(stateFieldsOf(draft.definition)).map((field) => (
        <option key={field} value={field}>
          {field}
        </option>
      ))}
    </>
  );
}

/** The side panel: the selected node's binding, input and output mapping, its edges; or the selected edge. */
export function SelectionPanel({ selected, context }: { selected: string; context: PanelContext }) {
  const t = useT();
  const { draft } = context;
  const arrowIndex = edgeIndexOf(selected);
  if (arrowIndex !== undefined) {
    const edge = edgesOf(draft.definition)[arrowIndex];
    if (!edge) return null;
    const from = typeof edge.from === 'string' ? edge.from : edge.from.join(' + ');
    return (
      <section className="card flow-panel" aria-labelledby="selection-heading">
        <h2 id="selection-heading">{t('workflow.edge.heading', { from, to: edge.to })}</h2>
        {typeof edge.from === 'string' ? null : <p>{t('workflow.edge.join', { to: edge.to })}</p>}
        {context.readOnly ? null : (
          <button
            type="button"
            className="button-danger"
            onClick={() => {
              context.onChange((current) => removeArrows(current, [selected]));
              context.onSelect(undefined);
            }}
          >
            {t('workflow.edge.delete')}
          </button>
        )}
      </section>
    );
  }
  const conditional = conditionalOf(selected);
  if (conditional)
    return (
      <Suspense fallback={<p>{t('workflow.loading')}</p>}>
        {conditional.kind === 'routes' ? (
          <RoutePanel key={selected} index={conditional.index} context={context} />
        ) : (
          <LoopPanel key={selected} index={conditional.index} context={context} />
        )}
      </Suspense>
    );
  const node = nodesOf(draft.definition).find((candidate) => candidate.name === selected);
  return (
    <section className="card flow-panel" aria-labelledby="selection-heading">
      <h2 id="selection-heading">{node ? t('workflow.node.heading', { name: selected }) : selected}</h2>
      {context.issuesOf(selected).length > 0 ? (
        <ul className="field-error">
          {context.issuesOf(selected).map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
      {node?.kind === 'agent' ? <AgentNodeFields node={node} context={context} /> : null}
      {node?.kind === 'capability' ? <ToolNodeFields key={node.name} node={node} context={context} /> : null}
      {node?.kind === 'input' ? (
        <Suspense fallback={<p>{t('workflow.loading')}</p>}>
          <InputNodeFields key={node.name} node={node} context={context} />
        </Suspense>
      ) : null}
      {context.readOnly || selected === 'END' ? null : (
        <ConnectFields key={`connect-${selected}`} from={selected} context={context} />
      )}
      {context.readOnly || !node ? null : <JoinFields key={`join-${selected}`} to={selected} context={context} />}
      {context.readOnly || !node ? null : (
        <button
          type="button"
          className="button-danger"
          onClick={() => {
            context.onChange((current) => deleteNodeEverywhere(current, selected));
            context.onSelect(undefined);
          }}
        >
          {t('workflow.node.delete', { name: selected })}
        </button>
      )}
    </section>
  );
}

/** An agent node: the published agent app it calls, its question (a field or a template) and where the answer goes. */
function AgentNodeFields({ node, context }: { node: DefinitionNode; context: PanelContext }) {
  const t = useT();
  const { draft, readOnly } = context;
  const boundAppId = node.agent ? draft.bindings.agents[node.agent]?.appId : undefined;
  const input = node.input;
  const inputMode = typeof input === 'object' && input !== null && 'template' in input ? 'template' : 'field';
  const change = (update: (node: DefinitionNode) => DefinitionNode) =>
    context.onChange((current) => pruneBindings(updateNode(current, node.name, update)));
  return (
    <>
      <SelectField
        label={t('workflow.node.agentApp')}
        value={boundAppId ?? ''}
        disabled={readOnly}
        hint={t('workflow.node.agentAppHint')}
        onChange={(event) => {
          const app = context.agentApps.find((candidate) => candidate.id === event.target.value);
          if (!app) return;
          const name = bindingNameOf(app.name);
          context.onChange((current) =>
            pruneBindings({
              ...updateNode(current, node.name, (old) => ({ ...old, agent: name })),
              bindings: { ...current.bindings, agents: { ...current.bindings.agents, [name]: { appId: app.id } } },
            }),
          );
        }}
      >
        <option value="">{t('workflow.node.chooseAgentApp')}</option>
        {context.agentApps.map((app) => (
          <option key={app.id} value={app.id}>
            {app.name}
            {app.latestReleaseId ? '' : t('workflow.notPublished')}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('workflow.node.inputFrom')}
        value={inputMode === 'template' ? '(template)' : typeof input === 'string' ? input : ''}
        disabled={readOnly}
        onChange={(event) =>
          change((old) =>
            setField(
              old,
              'input',
              event.target.value === '(template)' ? { template: '' } : event.target.value === '' ? undefined : event.target.value,
            ),
          )
        }
      >
        <StateOptions draft={draft} />
        <option value="(template)">{t('workflow.node.template')}</option>
      </SelectField>
      {inputMode === 'template' ? (
        <TextAreaField
          label={t('workflow.node.inputTemplate')}
          rows={3}
          hint={t('workflow.node.inputTemplateHint')}
          readOnly={readOnly}
          value={String((input as { template?: unknown }).template ?? '')}
          onChange={(event) => change((old) => setField(old, 'input', { template: event.target.value }))}
        />
      ) : null}
      <OutputField node={node} context={context} />
    </>
  );
}

/** The state field a node's result goes to. */
function OutputField({ node, context }: { node: DefinitionNode; context: PanelContext }) {
  const t = useT();
  return (
    <SelectField
      label={t('workflow.node.outputTo')}
      value={node.output ?? ''}
      disabled={context.readOnly}
      onChange={(event) =>
        context.onChange((current) =>
          updateNode(current, node.name, (old) => setField(old, 'output', event.target.value || undefined)),
        )
      }
    >
      <StateOptions draft={context.draft} />
    </SelectField>
  );
}

/**
 * A tool node: what it calls — a custom tool of the space, or a tool of one of the space's MCP
 * servers (`server` + `tool`, bound through `bindings.mcpServers`) — each argument from a state
 * field or a constant, and where the result goes. An MCP tool's arguments are named by hand (the
 * server's listing gives no parameters here); a custom tool's come from its parameters.
 */
function ToolNodeFields({ node, context }: { node: DefinitionNode; context: PanelContext }) {
  const t = useT();
  const { draft, readOnly } = context;
  const [calls, setCalls] = useState<'custom' | 'mcp'>(node.server !== undefined ? 'mcp' : 'custom');
  const [argumentName, setArgumentName] = useState('');
  const [added, setAdded] = useState<string[]>([]);
  const boundId = node.tool && node.server === undefined ? draft.bindings.tools[node.tool]?.resourceId : undefined;
  const serverId = node.server !== undefined ? draft.bindings.mcpServers[node.server]?.resourceId : undefined;
  const resource = context.tools.find((tool) => tool.id === boundId);
  const version = useLatestVersion(context.spaceId, resource);
  const content = version.data?.version.content as { parameters?: { properties?: Record<string, unknown> } } | undefined;
  const input = (typeof node.input === 'object' && node.input !== null ? node.input : {}) as Record<string, unknown>;
  const argumentNames = [
    ...new Set([
      ...(calls === 'custom' ? Object.keys(content?.parameters?.properties ?? {}) : []),
      ...Object.keys(input),
      ...added,
    ]),
  ];
  const setArgument = (argument: string, value: unknown) =>
    context.onChange((current) =>
      updateNode(current, node.name, (old) => {
        const { [argument]: _old, ...rest } = (typeof old.input === 'object' && old.input !== null ? old.input : {}) as Record<
          string,
          unknown
        >;
        const next = value === undefined ? rest : { ...rest, [argument]: value };
        return setField(old, 'input', Object.keys(next).length > 0 ? next : undefined);
      }),
    );
  const withoutTarget = (old: DefinitionNode) => setField(setField(old, 'server', undefined), 'tool', undefined);
  return (
    <>
      <SelectField
        label={t('workflow.node.calls')}
        value={calls}
        disabled={readOnly}
        onChange={(event) => {
          setCalls(event.target.value as 'custom' | 'mcp');
          context.onChange((current) => pruneBindings(updateNode(current, node.name, withoutTarget)));
        }}
      >
        <option value="custom">{t('workflow.node.callsCustom')}</option>
        <option value="mcp">{t('workflow.node.callsMcp')}</option>
      </SelectField>
      {calls === 'mcp' ? (
        <McpToolFields
          spaceId={context.spaceId}
          servers={context.mcpServers}
          serverId={serverId}
          tool={node.tool}
          readOnly={readOnly}
          onServer={(server) => {
            const name = mcpBindingNameOf(server);
            context.onChange((current) =>
              pruneBindings({
                ...updateNode(current, node.name, (old) => (old.server === name ? old : { ...withoutTarget(old), server: name })),
                bindings: {
                  ...current.bindings,
                  mcpServers: { ...current.bindings.mcpServers, [name]: { resourceId: server.id } },
                },
              }),
            );
          }}
          onTool={(tool) => context.onChange((current) => updateNode(current, node.name, (old) => ({ ...old, tool })))}
        />
      ) : (
        <SelectField
          label={t('workflow.node.tool')}
          value={boundId ?? ''}
          disabled={readOnly}
          onChange={(event) => {
            const tool = context.tools.find((candidate) => candidate.id === event.target.value);
            if (!tool) return;
            const name = bindingNameOf(tool.name);
            context.onChange((current) =>
              pruneBindings({
                ...updateNode(current, node.name, (old) => ({ ...old, tool: name })),
                bindings: { ...current.bindings, tools: { ...current.bindings.tools, [name]: { resourceId: tool.id } } },
              }),
            );
          }}
        >
          <option value="">{t('workflow.chooseTool')}</option>
          {context.tools.map((tool) => (
            <option key={tool.id} value={tool.id}>
              {tool.name}
            </option>
          ))}
        </SelectField>
      )}
      {argumentNames.length > 0 ? (
        <fieldset className="fieldset">
          <legend>{t('workflow.node.arguments')}</legend>
          {argumentNames.map((argument) => (
            <ArgumentField
              key={argument}
              argument={argument}
              value={input[argument]}
              draft={draft}
              readOnly={readOnly}
              onChange={(value) => setArgument(argument, value)}
            />
          ))}
        </fieldset>
      ) : null}
      {calls === 'mcp' && !readOnly ? (
        <div className="flow-inline-form">
          <TextField
            label={t('workflow.node.argumentName')}
            hint={t('workflow.node.argumentNameHint')}
            value={argumentName}
            onValue={setArgumentName}
          />
          <button
            type="button"
            disabled={!argumentName.trim() || argumentNames.includes(argumentName.trim())}
            onClick={() => {
              setAdded((current) => [...current, argumentName.trim()]);
              setArgumentName('');
            }}
          >
            {t('workflow.node.addArgument')}
          </button>
        </div>
      ) : null}
      <OutputField node={node} context={context} />
    </>
  );
}

/** One tool argument: a state field, or a constant typed as JSON (plain text is taken as a string). */
function ArgumentField({
  argument,
  value,
  draft,
  readOnly,
  onChange,
}: {
  argument: string;
  value: unknown;
  draft: WorkflowDraft;
  readOnly: boolean;
  onChange: (value: unknown) => void;
}) {
  const t = useT();
  const constant = typeof value === 'object' && value !== null && 'value' in value;
  const [text, setText] = useState(constant ? JSON.stringify((value as { value: unknown }).value) : '');
  const parse = (raw: string): unknown => {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  };
  return (
    <div className="flow-argument">
      <SelectField
        label={t('workflow.node.argumentFrom', { argument })}
        value={constant ? '(constant)' : typeof value === 'string' ? value : ''}
        disabled={readOnly}
        onChange={(event) =>
          onChange(
            event.target.value === '(constant)'
              ? { value: parse(text) }
              : event.target.value === ''
                ? undefined
                : event.target.value,
          )
        }
      >
        <StateOptions draft={draft} />
        <option value="(constant)">{t('workflow.node.constant')}</option>
      </SelectField>
      {constant ? (
        <TextField
          label={t('workflow.node.argumentConstant', { argument })}
          hint={t('workflow.node.constantHint')}
          value={text}
          readOnly={readOnly}
          onChange={(event) => {
            setText(event.target.value);
            onChange({ value: parse(event.target.value) });
          }}
        />
      ) : null}
    </div>
  );
}
