import type { FieldName, StateDefinition, StateOf, UpdateOf } from '../channels/state-fields.js';
import type { WorkflowIssue } from '../errors/workflow-errors.js';
import { checkContract, jsonSchemaOf } from '../graph/contracts.js';
import type { NodeInvocation } from './workflow-node.js';

/**
 * Where a node's result goes (W-2): a state field, which receives it through its reducer (an
 * append field gets it as one item), or a function that turns it into a state update.
 */
export type OutputBinding<Definition extends StateDefinition, Produced> =
  | FieldName<Definition>
  | ((produced: Produced, state: StateOf<Definition>) => UpdateOf<Definition>);

/** The state update a node's output binding makes of what the node produced. */
export function bindOutput(
  binding: OutputBinding<StateDefinition, never> | undefined,
  produced: unknown,
  invocation: Pick<NodeInvocation, 'fields' | 'state'>,
): Record<string, unknown> {
  if (binding === undefined) return {};
  if (typeof binding === 'function') {
    const update = (binding as (produced: unknown, state: unknown) => Record<string, unknown> | undefined)(
      produced,
      invocation.state,
    );
    return update ?? {};
  }
  const field = invocation.fields[binding];
  return { [binding]: field ? field.bindingUpdate(produced) : produced };
}

/** Checks an output binding against the state: the field exists and accepts what the node produces. */
export function validateOutputBinding(
  node: string,
  binding: OutputBinding<StateDefinition, never> | undefined,
  produced: Record<string, unknown>,
  state: StateDefinition,
): WorkflowIssue[] {
  if (typeof binding !== 'string') return [];
  const field = state[binding];
  if (!field) {
    return [
      {
        code: 'unknown-field',
        node,
        field: binding,
        binding: 'output',
        message: `node "${node}": its output goes to the unknown state field "${binding}"`,
      },
    ];
  }
  const check = checkContract(produced, jsonSchemaOf(field.contractSchema, 'input'));
  if (check.ok) return [];
  return [
    {
      code: 'data-contract-mismatch',
      node,
      binding: 'output',
      field: binding,
      expected: check.expected,
      actual: check.actual,
      message: `node "${node}": field "${binding}" accepts ${check.expected}, but the node produces ${check.actual}`,
    },
  ];
}
