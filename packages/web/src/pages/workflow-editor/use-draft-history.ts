import { useCallback, useEffect, useState } from 'react';
import type { DraftEdit } from '../../drafts/index.js';
import type { WorkflowDraft } from './draft-model.js';

type Edit = DraftEdit<WorkflowDraft>;

/** How many drafts back undo reaches. */
const depth = 100;
/** Edits with the same key closer together than this (ms) are one step (a drag, typing in one field). */
const coalesceWindowMs = 1500;

interface History {
  edit: Edit | undefined;
  past: WorkflowDraft[];
  future: WorkflowDraft[];
  /** The coalesce key of the last edit and when it was made. */
  lastKey: string | undefined;
  lastAt: number;
  /** How many undos and redos were made: forms holding typed text start over after one. */
  steps: number;
}

/**
 * The editor's draft with undo and redo over its edits (issue 36): every edit of the draft — on the
 * canvas, in the side panel, in the JSON view, an import, an auto-layout — is a step; edits with the
 * same coalesce key in a row (a drag's moves, typing in one field) are one. Undo and redo change the
 * draft as it is edited; a save or a conflict's "load theirs" keeps the history (an undo after a
 * save makes the draft unsaved again). Ctrl/Cmd+Z undoes and Ctrl/Cmd+Shift+Z (or Ctrl+Y) redoes,
 * except while typing in a field, where the field's own undo applies.
 */
export function useDraftHistory(stored: Edit | undefined) {
  const [history, setHistory] = useState<History>({
    edit: undefined,
    past: [],
    future: [],
    lastKey: undefined,
    lastAt: 0,
    steps: 0,
  });
  const current = history.edit ?? stored;

  /** Replaces the edit without a history step (a save's answer, their version loaded). */
  const setEdit = useCallback((edit: Edit | undefined) => setHistory((previous) => ({ ...previous, edit })), []);

  /** Applies a change to the draft as one step (or as part of the last one, with the same `coalesce` key). */
  const change = useCallback(
    (update: (draft: WorkflowDraft) => WorkflowDraft, coalesce?: string) =>
      setHistory((previous) => {
        const base = previous.edit ?? stored;
        if (!base) return previous;
        const draft = update(base.draft);
        if (draft === base.draft) return previous;
        const now = Date.now();
        const joins =
          coalesce !== undefined &&
          coalesce === previous.lastKey &&
          now - previous.lastAt < coalesceWindowMs &&
          previous.past.length > 0;
        return {
          edit: { ...base, draft, dirty: true },
          past: joins ? previous.past : [...previous.past, base.draft].slice(-depth),
          future: [],
          lastKey: coalesce,
          lastAt: now,
          steps: previous.steps,
        };
      }),
    [stored],
  );

  const step = useCallback(
    (direction: 'undo' | 'redo') =>
      setHistory((previous) => {
        const base = previous.edit ?? stored;
        const from = direction === 'undo' ? previous.past : previous.future;
        const target = from.at(-1);
        if (!base || target === undefined) return previous;
        const rest = from.slice(0, -1);
        const other = [...(direction === 'undo' ? previous.future : previous.past), base.draft];
        return {
          edit: { ...base, draft: target, dirty: true },
          past: direction === 'undo' ? rest : other,
          future: direction === 'undo' ? other : rest,
          lastKey: undefined,
          lastAt: 0,
          steps: previous.steps + 1,
        };
      }),
    [stored],
  );
  const undo = useCallback(() => step('undo'), [step]);
  const redo = useCallback(() => step('redo'), [step]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) undo();
      else if ((key === 'z' && event.shiftKey) || (key === 'y' && !event.metaKey)) redo();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);

  return {
    current,
    setEdit,
    change,
    undo,
    redo,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    steps: history.steps,
  };
}
