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
  MiniMap,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  useReactFlow,
  useStore,
} from '@xyflow/react';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { type MessageId, useT } from '../../i18n/index.js';
import type { NodeRunState } from '../../runs/workflow-progress.js';
import {
  conditionalArrows,
  type DefinitionNode,
  edgeArrowIds,
  edgeIndexOf,
  edgesOf,
  nodesOf,
  type PlacedIssues,
  positionsOf,
  type WorkflowDraft,
  withEdges,
} from './draft-model.js';
import { deleteNodeEverywhere, removeConditionalArrows } from './flow-model.js';

/** What a node box shows: its definition node (absent for START / END), what it is bound to, its issues. */
type BoxData = { label: string; node?: DefinitionNode; issues: string[]; binding?: string; run?: NodeRunState };
type BoxNode = Node<BoxData, 'box'>;

/** A node's run status in words (colour is never the only cue): its message id. */
export const runStatusWords: Record<NodeRunState['status'], MessageId> = {
  pending: 'workflow.status.pending',
  running: 'workflow.status.running',
  retrying: 'workflow.status.retrying',
  succeeded: 'workflow.status.succeeded',
  failed: 'workflow.status.failed',
  interrupted: 'workflow.status.interrupted',
  stopped: 'workflow.status.stopped',
  'not-run': 'workflow.status.not-run',
};

/** A node of the canvas: its name and kind, what it is bound to, its issues and, on a run's canvas, its status. */
function NodeBox({ data, selected }: NodeProps<BoxNode>) {
  const t = useT();
  const { node, issues, run } = data;
  const virtual = !node;
  return (
    <div
      className={`flow-node${virtual ? ' flow-node-virtual' : ''}${issues.length > 0 ? ' flow-node-invalid' : ''}${selected ? ' flow-node-selected' : ''}${run ? ` flow-node-run flow-node-${run.status}` : ''}`}
      data-node={data.label}
      data-status={run?.status}
    >
      {data.label !== 'START' ? <Handle type="target" position={Position.Left} /> : null}
      <strong>{data.label}</strong>
      {node ? (
        <span className="flow-node-kind">
          {t(
            node.kind === 'agent'
              ? 'workflow.kind.agent'
              : node.kind === 'input'
                ? 'workflow.kind.input'
                : node.kind === 'team'
                  ? 'workflow.kind.team'
                  : node.server !== undefined
                    ? 'workflow.kind.mcpTool'
                    : 'workflow.kind.tool',
          )}{' '}
          {data.binding ?? ''}
        </span>
      ) : null}
      {run ? (
        <span className="flow-node-status">
          {t(runStatusWords[run.status])}
          {run.status === 'retrying' && run.attempt ? t('workflow.status.attempt', { attempt: run.attempt }) : ''}
          {run.runs > 1 ? t('workflow.status.ran', { runs: run.runs }) : ''}
        </span>
      ) : null}
      {run?.failure && (run.status === 'failed' || run.status === 'retrying') ? (
        <span className="flow-node-issue">{run.failure}</span>
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
/**
 * The whole graph in view, as large as fits: a little padding, never above 100 %, and never so
 * small that the node names cannot be read (a wider graph is panned instead).
 */
const fitViewOptions = { maxZoom: 1, minZoom: 0.5, padding: 0.06 };
/** The size of a node box on the canvas at 100 %, for the canvas height (boxes are 150–220 px wide). */
const boxSize = { width: 200, height: 90 };
/** The canvas is never shorter or taller than this (px). */
const canvasHeights = { min: 260, max: 640 };

/**
 * Fits the whole graph into view whenever a node is added or removed or the canvas is resized, so
 * a new node is never off-screen. It runs again once the canvas has its new size, or the graph
 * would stay centred in the size the canvas had before.
 */
function FitWhenNodesChange({ count, fitKey }: { count: number; fitKey: number }) {
  const { fitView } = useReactFlow();
  // Empty until the canvas has a size; `fitView` itself waits for the nodes to be measured.
  const size = useStore((store) => (store.width > 0 && store.height > 0 ? `${store.width}x${store.height}` : ''));
  useEffect(() => {
    if (count > 0 && size && fitKey >= 0) void fitView(fitViewOptions);
  }, [count, size, fitView, fitKey]);
  return null;
}

/** The width of an element, kept up to date as it is resized. */
function useWidth(element: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    setWidth(target.clientWidth);
    const observer = new ResizeObserver(() => setWidth(target.clientWidth));
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/**
 * The canvas height that fits the graph's shape: a wide, flat graph gets a low canvas instead of
 * being drawn small in the middle of a tall one. Read from the positions when the node count or
 * the width changes, not while a node is dragged.
 */
function canvasHeightFor(positions: Record<string, { x: number; y: number }>, width: number): number {
  const points = Object.values(positions);
  if (points.length === 0 || width === 0) return canvasHeights.max;
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  const graphWidth = Math.max(...xs) - Math.min(...xs) + boxSize.width;
  const graphHeight = Math.max(...ys) - Math.min(...ys) + boxSize.height;
  const zoom = Math.max(
    fitViewOptions.minZoom,
    Math.min(fitViewOptions.maxZoom, width / (graphWidth * (1 + 2 * fitViewOptions.padding))),
  );
  const wanted = Math.ceil(graphHeight * zoom * (1 + 2 * fitViewOptions.padding)) + 48;
  return Math.min(canvasHeights.max, Math.max(canvasHeights.min, wanted));
}

/**
 * The canvas of a workflow draft (`@xyflow/react`): START, the nodes and END; plain edges and
 * joins (one arrow per source) that can be drawn and deleted; routes and loops drawn dashed with
 * their condition, selected to be edited in the side panel, deleted like an edge; a minimap. Moving a node writes its position into the draft's
 * layout. Issues are written on the node or arrow they concern. Given `runStates` (a run's
 * canvas, read-only), each node shows its status in that run.
 */
export function WorkflowCanvas({
  draft,
  placed,
  selected,
  readOnly,
  bindingLabel,
  onChange,
  onSelect,
  runStates,
  label,
  onConnectDrawn,
  fitKey = 0,
}: {
  draft: WorkflowDraft;
  placed: PlacedIssues;
  selected: string | undefined;
  readOnly: boolean;
  bindingLabel: (node: DefinitionNode) => string | undefined;
  /** Applies an edit; a drag's moves share a `coalesce` key, so one undo puts the node back where the drag began. */
  onChange: (change: (draft: WorkflowDraft) => WorkflowDraft, coalesce?: string) => void;
  onSelect: (id: string | undefined) => void;
  runStates?: ReadonlyMap<string, NodeRunState> | undefined;
  label?: string;
  /** Given, a connection drawn between two nodes is handed over (the editor asks what it becomes); else it is a plain edge. */
  onConnectDrawn?: (from: string, to: string) => void;
  /** Changed to fit the whole graph into view again (after an auto-layout). */
  fitKey?: number;
}) {
  const t = useT();
  const positions = useMemo(() => positionsOf(draft), [draft]);
  const frame = useRef<HTMLElement>(null);
  const width = useWidth(frame);
  // The sizes React Flow measured, handed back on every render: the nodes are rebuilt each render,
  // and a node without `measured` is hidden until measured again (a run's page re-renders on every event).
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});
  const definitionNodes = nodesOf(draft.definition);
  const nodes: BoxNode[] = [
    { name: 'START' as const, node: undefined },
    ...definitionNodes.map((node) => ({ name: node.name, node })),
    { name: 'END' as const, node: undefined },
  ].map(({ name, node }) => {
    const binding = node ? bindingLabel(node) : undefined;
    const run = runStates?.get(name);
    return {
      id: name,
      type: 'box',
      position: positions[name] ?? { x: 0, y: 0 },
      ...(measured[name] ? { measured: measured[name] } : {}),
      selected: selected === name,
      deletable: !readOnly && node !== undefined,
      ariaLabel: run
        ? t('workflow.canvas.nodeStatus', { name, status: t(runStatusWords[run.status]) })
        : t('workflow.canvas.node', { name }),
      data: {
        label: name,
        issues: placed.byNode.get(name) ?? [],
        ...(run ? { run } : {}),
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
          ariaLabel: t(typeof edge.from === 'string' ? 'workflow.canvas.edge' : 'workflow.canvas.joinEdge', {
            from,
            to: edge.to,
          }),
          markerEnd: { type: MarkerType.ArrowClosed },
          ...(typeof edge.from === 'string' ? {} : { label: t('workflow.canvas.join') }),
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
        selected: selected === arrow.id,
        deletable: !readOnly,
        ariaLabel: t('workflow.canvas.conditional', { from: arrow.from, to: arrow.to, condition: arrow.label }),
        className: issues.length > 0 ? 'flow-edge-conditional flow-edge-invalid' : 'flow-edge-conditional',
        markerEnd: { type: MarkerType.ArrowClosed },
      };
    }),
  ];

  const onNodesChange = (changes: NodeChange<BoxNode>[]) => {
    const sized = changes.flatMap((change) =>
      change.type === 'dimensions' && change.dimensions ? [{ id: change.id, dimensions: change.dimensions }] : [],
    );
    if (sized.length > 0)
      setMeasured((current) => {
        const changed = sized.filter(
          ({ id, dimensions }) => current[id]?.width !== dimensions?.width || current[id]?.height !== dimensions?.height,
        );
        return changed.length === 0
          ? current
          : { ...current, ...Object.fromEntries(changed.map(({ id, dimensions }) => [id, dimensions])) };
      });
    const moved = changes.flatMap((change) => (change.type === 'position' && change.position ? [change] : []));
    if (moved.length > 0 && !readOnly)
      onChange(
        (current) => ({
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
        }),
        `move:${moved.map((change) => change.id).join(',')}`,
      );
    for (const change of changes) if (change.type === 'select' && change.selected) onSelect(change.id);
    const removed = changes.flatMap((change) => (change.type === 'remove' ? [change.id] : []));
    if (removed.length > 0 && !readOnly) {
      onChange((current) => removed.reduce((draft, name) => deleteNodeEverywhere(draft, name), current));
      onSelect(undefined);
    }
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    for (const change of changes) if (change.type === 'select' && change.selected) onSelect(change.id);
    const removed = changes.flatMap((change) => (change.type === 'remove' ? [change.id] : []));
    if (removed.length > 0 && !readOnly) {
      onChange((current) => removeConditionalArrows(removeArrows(current, removed), removed));
      onSelect(undefined);
    }
  };
  const onConnect = (connection: Connection) => {
    if (readOnly || !connection.source || !connection.target) return;
    if (onConnectDrawn) {
      onConnectDrawn(connection.source, connection.target);
      return;
    }
    onChange((current) => addEdge(current, connection.source, connection.target));
  };

  // Sized when the node count or the width changes (not on every drag), from the positions then.
  const positionsRef = useRef(positions);
  positionsRef.current = positions;
  const count = nodes.length;
  const height = useMemo(() => (count > 0 ? canvasHeightFor(positionsRef.current, width) : canvasHeights.max), [count, width]);

  return (
    <section
      ref={frame}
      className="flow-canvas"
      data-testid="workflow-canvas"
      style={{ height }}
      aria-label={label ?? t('workflow.canvas.label')}
    >
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
        <MiniMap pannable zoomable ariaLabel={t('flow.minimap')} />
        <FitWhenNodesChange count={count} fitKey={fitKey} />
      </ReactFlow>
    </section>
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
