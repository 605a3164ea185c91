import type { Schema } from '../../api/index.js';
import type { DraftIssue, WorkflowDraft } from './draft-model.js';

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
  /** The draft's issues as the server reported them (a save, a check, a refused publish), for placing them at their field. */
  issues: readonly DraftIssue[];
  /** Applies an edit; edits with the same `coalesce` key in a row are undone as one (typing in one field). */
  onChange: (change: (draft: WorkflowDraft) => WorkflowDraft, coalesce?: string) => void;
  onSelect: (id: string | undefined) => void;
}
