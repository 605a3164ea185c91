import type { Schema } from '../../api/index.js';
import type { WorkflowDraft } from './draft-model.js';

type App = Schema<'App'>;
type Resource = Schema<'Resource'>;

/** What the side panel needs besides the selection. */
export interface PanelContext {
  spaceId: string;
  draft: WorkflowDraft;
  readOnly: boolean;
  agentApps: readonly App[];
  tools: readonly Resource[];
  /** The space's MCP server resources (a tool node may call one of their tools). */
  mcpServers: readonly Resource[];
  issuesOf: (name: string) => string[];
  onChange: (change: (draft: WorkflowDraft) => WorkflowDraft) => void;
  onSelect: (id: string | undefined) => void;
}
