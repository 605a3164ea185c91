import '@xyflow/react/dist/style.css';
import './workflow-editor.css';
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  type EdgeChange,
  Handle,
  MarkerType,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  useReactFlow,
} from '@xyflow/react';
import { useEffect, useMemo } from 'react';
import {
  conditionalArrows,
  type DefinitionNode,
  deleteNode,
  edgeArrowIds,
  edgeIndexOf,
  edgesOf,
  nodesOf,
  type PlacedIssues,
  positionsOf,
  type WorkflowDraft,
  withEdges,
} from './draft-model.js';

/** What a node box shows: its definition node (absent for START / END), what it is bound to, its issues. */
type BoxData = { label: string; node?: DefinitionNode; issues: string[]; binding?: string };
type BoxNode = Node<BoxData, 'box'>;

/** A node of the canvas: its name and kind, what it is bound to, and its issues written on it. */
function NodeBox({ data, selected }: NodeProps<BoxNode>) {
  const { node, issues } = data;
  const virtual = !node;
  return (
    <div
      className={`flow-node${virtual ? ' flow-node-virtual' : ''}${issues.length > 0 ? ' flow-node-invalid' : ''}${selected ? ' flow-node-selected' : ''}`}
      data-node={data.label}
    >
      {data.label !== 'START' ? <Handle type="target" position={Position.Left} /> : null}
      <strong>{data.label}</strong>
      {node ? (
        <span className="flow-node-kind">
          {node.kind === 'agent' ? 'agent' : 'tool'} {data.binding ?? ''}
        </span>
      ) : null}
      {issues.map((message) => (
        <span key={message} className="flow-node-issue">
          ⚠ {message}
        </span>
      ))}
      {data.label !== 'END' ? <Handle type="source" position={Position.Right} /> : null}
    </div>
  );
}

const nodeTypes = { box: NodeBox };
const fitViewOptions = { maxZoom: 1, padding: 0.15 };

/** Fits the whole graph into view whenever a node is added or removed, so a new node is never off-screen. */
function FitWhenNodesChange({ count }: { count: number }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    if (count > 0) void fitView(fitViewOptions);
  }, [count, fitView]);
  return null;
}

/**
 * The canvas of a workflow draft (`@xyflow/react`): START, the nodes and END; plain edges and
 * joins (one arrow per source) that can be drawn and deleted; routes and loops drawn dashed with
 * their condition (edited in the JSON view). Moving a node writes its position into the draft's
 * layout. Issues are written on the node or arrow they concern.
 */
export function WorkflowCanvas({
  draft,
  placed,
  selected,
  readOnly,
  bindingLabel,
  onChange,
  onSelect,
}: {
  draft: WorkflowDraft;
  placed: PlacedIssues;
  selected: string | undefined;
  readOnly: boolean;
  bindingLabel: (node: DefinitionNode) => string | undefined;
  onChange: (change: (draft: WorkflowDraft) => WorkflowDraft) => void;
  onSelect: (id: string | undefined) => void;
}) {
  const positions = useMemo(() => positionsOf(draft), [draft]);
  const definitionNodes = nodesOf(draft.definition);
  const nodes: BoxNode[] = [
    { name: 'START' as const, node: undefined },
    ...definitionNodes.map((node) => ({ name: node.name, node })),
    { name: 'END' as const, node: undefined },
  ].map(({ name, node }) => {
    const binding = node ? bindingLabel(node) : undefined;
    return {
      id: name,
      type: 'box',
      position: positions[name] ?? { x: 0, y: 0 },
      selected: selected === name,
      deletable: !readOnly && node !== undefined,
      ariaLabel: `Node ${name}`,
      data: {
        label: name,
        issues: placed.byNode.get(name) ?? [],
        ...(node ? { node } : {}),
        ...(binding ? { binding } : {}),
      },
    };
  });
  const edges: Edge[] = [
    ...edgesOf(draft.definition).flatMap((edge, index) =>
      edgeArrowIds(edge, index).map(({ id, from }) => {
        const issues = placed.byArrow.get(id) ?? [];
        return {
          id,
          source: from,
          target: edge.to,
          selected: selected === id,
          deletable: !readOnly,
          ariaLabel: `Edge from ${from} to ${edge.to}${typeof edge.from === 'string' ? '' : ' (join)'}`,
          markerEnd: { type: MarkerType.ArrowClosed },
          ...(typeof edge.from === 'string' ? {} : { label: 'join' }),
          ...(issues.length > 0 ? { label: `⚠ ${issues.join('; ')}`, className: 'flow-edge-invalid' } : {}),
        };
      }),
    ),
    ...conditionalArrows(draft.definition).map((arrow) => {
      const issues = placed.byArrow.get(arrow.id) ?? [];
      return {
        id: arrow.id,
        source: arrow.from,
        target: arrow.to,
        label: issues.length > 0 ? `⚠ ${issues.join('; ')}` : arrow.label,
        animated: true,
        deletable: false,
        ariaLabel: `Conditional edge from ${arrow.from} to ${arrow.to}: ${arrow.label}`,
        className: issues.length > 0 ? 'flow-edge-conditional flow-edge-invalid' : 'flow-edge-conditional',
        markerEnd: { type: MarkerType.ArrowClosed },
      };
    }),
  ];

  const onNodesChange = (changes: NodeChange<BoxNode>[]) => {
    const moved = changes.flatMap((change) => (change.type === 'position' && change.position ? [change] : []));
    if (moved.length > 0 && !readOnly)
      onChange((current) => ({
        ...current,
        layout: {
          nodes: {
            ...current.layout.nodes,
            ...Object.fromEntries(
              moved.map((change) => [
                change.id,
                { x: Math.round(change.position?.x ?? 0), y: Math.round(change.position?.y ?? 0) },
              ]),
            ),
          },
        },
      }));
    for (const change of changes) if (change.type === 'select' && change.selected) onSelect(change.id);
    const removed = changes.flatMap((change) => (change.type === 'remove' ? [change.id] : []));
    if (removed.length > 0 && !readOnly) {
      onChange((current) => removed.reduce((draft, name) => deleteNode(draft, name), current));
      onSelect(undefined);
    }
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    for (const change of changes) if (change.type === 'select' && change.selected) onSelect(change.id);
    const removed = changes.flatMap((change) => (change.type === 'remove' ? [change.id] : []));
    if (removed.length > 0 && !readOnly) {
      onChange((current) => removeArrows(current, removed));
      onSelect(undefined);
    }
  };
  const onConnect = (connection: Connection) => {
    if (readOnly || !connection.source || !connection.target) return;
    onChange((current) => addEdge(current, connection.source, connection.target));
  };

  return (
    <div className="flow-canvas" data-testid="workflow-canvas">
      <ReactFlow<BoxNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onPaneClick={() => onSelect(undefined)}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
        fitView
        fitViewOptions={fitViewOptions}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
        <FitWhenNodesChange count={nodes.length} />
      </ReactFlow>
    </div>
  );
}

/** Adds a plain edge `from → to` unless the same edge exists already. */
export function addEdge(draft: WorkflowDraft, from: string, to: string): WorkflowDraft {
  const edges = Array.isArray(draft.definition.edges) ? draft.definition.edges : [];
  if (edgesOf(draft.definition).some((edge) => edge.from === from && edge.to === to)) return draft;
  return withEdges(draft, [...edges, { from, to }]);
}

/** Removes arrows: a plain edge goes; a join loses those sources (left with one, it becomes a plain edge). */
export function removeArrows(draft: WorkflowDraft, arrowIds: readonly string[]): WorkflowDraft {
  const edges = Array.isArray(draft.definition.edges) ? draft.definition.edges : [];
  const next = edges.flatMap((edge, index) => {
    const gone = arrowIds.filter((id) => edgeIndexOf(id) === index);
    if (gone.length === 0 || typeof edge !== 'object' || edge === null) return [edge];
    const typed = edge as { from: string | string[]; to: string };
    if (typeof typed.from === 'string') return [];
    const from = typed.from.filter((source) => !gone.includes(`edge-${index}-${source}`));
    if (from.length === 0) return [];
    return [{ ...typed, from: from.length === 1 ? from[0] : from }];
  });
  return withEdges(draft, next);
}
