import type { MessageId } from '../../i18n/index.js';
import { nodesOf, type WorkflowDraft } from './draft-model.js';

/** A binding name from an app or resource name (letters, digits, `_`, `-` and `.`). */
export function bindingNameOf(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 128) || 'unnamed';
}

/** Whether a node name is free and allowed (the SDK's node name rule): the message id of its problem, if any. */
export function nodeNameProblem(draft: WorkflowDraft, name: string): MessageId | undefined {
  if (!name.trim()) return 'workflow.node.nameMissing';
  if (!/^(?!__)[^:/#+]{1,128}$/.test(name) || name === 'START' || name === 'END') return 'workflow.node.nameInvalid';
  if (nodesOf(draft.definition).some((node) => node.name === name)) return 'workflow.node.nameTaken';
  return undefined;
}
