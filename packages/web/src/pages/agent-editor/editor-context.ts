import { createContext, useContext } from 'react';
import type { Schema } from '../../api/index.js';
import type { AgentDraft } from './draft-state.js';

/** What every configuration group of the editor reads and changes. */
export interface EditorContextValue {
  draft: AgentDraft;
  /** Applies a change to a copy of the draft (never in place). */
  update: (change: (draft: AgentDraft) => AgentDraft) => void;
  /** The problem at a draft path, if any (shown next to its field). */
  issueAt: (path: string) => string | undefined;
  readOnly: boolean;
  mode: 'react' | 'plan-executor';
  connections: Schema<'ModelConnection'>[];
  resources: Schema<'Resource'>[];
  builtInTools: { name: string; description: string }[];
}

export const EditorContext = createContext<EditorContextValue | undefined>(undefined);

/** The editor state of the agent being edited. */
export function useEditor(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error('useEditor is used outside the agent editor.');
  return value;
}
