import { useState } from 'react';
import { SelectField, TextAreaField, TextField } from '../../components/index.js';
import { type MessageId, useT } from '../../i18n/index.js';
import { type DefinitionNode, stateFieldsOf, type WorkflowDraft, withNodes } from './draft-model.js';
import { serverIssuesUnder } from './flow-model.js';
import type { PanelContext } from './panel-context.js';

/** Text typed as JSON when it parses (`3`, `true`, `{"a":1}`), else the text itself. */
function parseLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
const shown = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

/** Replaces the input node `name` with `change(node)`; a field set to undefined is removed. */
function changeNode(draft: WorkflowDraft, name: string, fields: Record<string, unknown>): WorkflowDraft {
  const nodes = Array.isArray(draft.definition.nodes) ? draft.definition.nodes : [];
  return withNodes(
    draft,
    nodes.map((node) => {
      if (!node || typeof node !== 'object' || (node as DefinitionNode).name !== name) return node;
      const next: Record<string, unknown> = { ...(node as DefinitionNode), ...fields };
      for (const [key, value] of Object.entries(fields)) if (value === undefined) delete next[key];
      return next;
    }),
  );
}

/**
 * An input node (issue 36, docs/workflow-input.md): the question a person is asked ({{field}}
 * placeholders from the state), the answers offered (one per line), the JSON Schema an answer
 * must match, the state field the answer goes to, and an optional timeout with the answer
 * recorded when nobody answered in time. Each field shows its problem: the SDK's rules for the
 * node, checked here, or the server's issue at that path.
 */
export function InputNodeFields({ node, context }: { node: DefinitionNode; context: PanelContext }) {
  const t = useT();
  const { draft, readOnly } = context;
  const index = (Array.isArray(draft.definition.nodes) ? draft.definition.nodes : []).indexOf(node);
  const issues = serverIssuesUnder(context.issues, `definition.nodes.${index}`);
  const [choicesText, setChoicesText] = useState(Array.isArray(node.choices) ? node.choices.map(shown).join('\n') : '');
  const [schemaText, setSchemaText] = useState(node.schema === undefined ? '' : JSON.stringify(node.schema, null, 2));
  const [schemaError, setSchemaError] = useState<MessageId | undefined>();
  const timeout = (typeof node.timeout === 'object' && node.timeout !== null ? node.timeout : undefined) as
    | { afterMs?: unknown; outcome?: unknown }
    | undefined;
  const [outcomeText, setOutcomeText] = useState(shown(timeout?.outcome));
  const set = (fields: Record<string, unknown>, key?: string) =>
    context.onChange((current) => changeNode(current, node.name, fields), key && `input-${node.name}-${key}`);
  const server = (field: string) => issues.get(field)?.join('; ');
  const question = typeof node.question === 'string' ? node.question : '';
  const afterMs = timeout?.afterMs;
  const afterMsValid = afterMs === undefined || (typeof afterMs === 'number' && Number.isInteger(afterMs) && afterMs > 0);
  const choices = Array.isArray(node.choices) ? node.choices : undefined;
  const outcomeOffered =
    !timeout || !choices || choices.some((choice) => JSON.stringify(choice) === JSON.stringify(timeout.outcome));
  return (
    <>
      <TextAreaField
        label={t('flow.input.question')}
        hint={t('flow.input.questionHint')}
        rows={2}
        readOnly={readOnly}
        value={question}
        error={question.trim() ? server('question') : t('flow.input.questionMissing')}
        onChange={(event) => set({ question: event.target.value }, 'question')}
      />
      <TextAreaField
        label={t('flow.input.choices')}
        hint={t('flow.input.choicesHint')}
        rows={3}
        readOnly={readOnly}
        value={choicesText}
        error={server('choices')}
        onChange={(event) => {
          setChoicesText(event.target.value);
          const lines = event.target.value.split('\n').filter((line) => line.trim() !== '');
          set({ choices: lines.length === 0 ? undefined : lines.map((line) => parseLoose(line.trim())) }, 'choices');
        }}
      />
      <TextAreaField
        label={t('flow.input.schema')}
        hint={t('flow.input.schemaHint')}
        rows={3}
        spellCheck={false}
        readOnly={readOnly}
        value={schemaText}
        error={schemaError ? t(schemaError) : server('schema')}
        onChange={(event) => {
          setSchemaText(event.target.value);
          if (event.target.value.trim() === '') {
            setSchemaError(undefined);
            set({ schema: undefined }, 'schema');
            return;
          }
          const parsed = parseLoose(event.target.value);
          const valid = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
          setSchemaError(valid ? undefined : 'flow.input.schemaInvalid');
          if (valid) set({ schema: parsed }, 'schema');
        }}
      />
      <SelectField
        label={t('flow.input.output')}
        value={typeof node.output === 'string' ? node.output : ''}
        disabled={readOnly}
        error={server('output')}
        onChange={(event) => set({ output: event.target.value || undefined })}
      >
        <option value="">{t('workflow.none')}</option>
        {Object.keys(stateFieldsOf(draft.definition)).map((field) => (
          <option key={field} value={field}>
            {field}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('flow.input.timeout')}
        hint={t('flow.input.timeoutHint')}
        type="number"
        min={1}
        step={1}
        readOnly={readOnly}
        value={afterMs === undefined ? '' : String(afterMs)}
        error={afterMsValid ? server('timeout.afterMs') : t('flow.input.timeoutInvalid')}
        onChange={(event) =>
          set(
            {
              timeout:
                event.target.value === ''
                  ? undefined
                  : { afterMs: Number(event.target.value), outcome: timeout?.outcome ?? parseLoose(outcomeText) },
            },
            'timeout',
          )
        }
      />
      {timeout ? (
        <TextField
          label={t('flow.input.outcome')}
          hint={t('flow.input.outcomeHint')}
          readOnly={readOnly}
          value={outcomeText}
          error={outcomeOffered ? server('timeout.outcome') : t('flow.input.outcomeNotOffered')}
          onChange={(event) => {
            setOutcomeText(event.target.value);
            set({ timeout: { ...timeout, outcome: parseLoose(event.target.value) } }, 'outcome');
          }}
        />
      ) : null}
    </>
  );
}
