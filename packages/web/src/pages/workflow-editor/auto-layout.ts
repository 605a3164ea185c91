import { conditionalArrows, edgesOf, nodesOf, type WorkflowDraft } from './draft-model.js';

/** The size a node box is laid out with (px at 100 %; most boxes are 150–190 px wide). */
const box = { width: 190, height: 90 };

/**
 * Positions for START, every node and END, laid out left to right in layers by `@dagrejs/dagre`
 * (issue 36): plain edges, joins, routes, fan-outs and loop exits rank the nodes; a loop's way back
 * is left out, so a loop's body stays in reading order. dagre is loaded when the button is first
 * pressed, so the editor's own JavaScript stays within the page budget.
 */
export async function autoLayout(draft: WorkflowDraft): Promise<Record<string, { x: number; y: number }>> {
  const { default: dagre } = await import('@dagrejs/dagre');
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: 'LR', nodesep: 30, ranksep: 40, marginx: 20, marginy: 20 });
  graph.setDefaultEdgeLabel(() => ({}));
  const names = ['START', ...nodesOf(draft.definition).map((node) => node.name), 'END'];
  for (const name of names) graph.setNode(name, { width: box.width, height: box.height });
  const link = (from: string, to: string, id: string) => {
    if (from !== to && graph.hasNode(from) && graph.hasNode(to)) graph.setEdge(from, to, {}, id);
  };
  edgesOf(draft.definition).forEach((edge, index) => {
    for (const from of typeof edge.from === 'string' ? [edge.from] : edge.from) link(from, edge.to, `edge-${index}-${from}`);
  });
  for (const arrow of conditionalArrows(draft.definition)) if (!arrow.id.endsWith('-back')) link(arrow.from, arrow.to, arrow.id);
  const fanOuts = Array.isArray(draft.definition.fanOuts) ? draft.definition.fanOuts : [];
  fanOuts.forEach((fanOut, index) => {
    const { from, to, targets } = (fanOut ?? {}) as { from?: unknown; to?: unknown; targets?: unknown };
    for (const target of [to, ...(Array.isArray(targets) ? targets : [])])
      if (typeof from === 'string' && typeof target === 'string') link(from, target, `fan-${index}-${target}`);
  });
  dagre.layout(graph);
  const positions: Record<string, { x: number; y: number }> = {};
  for (const name of names) {
    const placed = graph.node(name);
    // dagre gives centres; the canvas places nodes by their top-left corner.
    positions[name] = { x: Math.round(placed.x - box.width / 2), y: Math.round(placed.y - box.height / 2) };
  }
  return positions;
}
