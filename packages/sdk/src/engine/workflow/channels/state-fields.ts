import { z } from 'zod';

/** How a state field merges the updates written to it (W-2). */
export type FieldKind = 'last-value' | 'append' | 'merge';

/**
 * One field of a workflow's shared state: the schema of what nodes write to it and the reducer
 * that merges those writes. Parallel writes of one superstep reach the reducer one by one in the
 * tasks' planned order, never in completion order, so the result is the same on every run and
 * after every recovery.
 */
export interface StateField<Value, Update> {
  readonly kind: FieldKind;
  /** Validates one update before it is saved; a node's update that fails it fails the node. */
  readonly updateSchema: z.ZodType<Update>;
  /** The schema of the field's value, what input bindings read (data contracts, W-4). */
  readonly valueSchema: z.ZodType;
  /**
   * The schema one binding reads or writes, for data-contract checks (W-4): the value for a
   * last-value or merge field, one item for an append field (bindings append one item).
   */
  readonly contractSchema: z.ZodType;
  /** The value before any write. */
  initial(): Value;
  /** The new value after one update; must not mutate `current` (nodes may still hold it). */
  reduce(current: Value, update: Update): Value;
  /** What an output binding writes for one produced value (an append binding adds one item). */
  bindingUpdate(produced: unknown): Update;
  /**
   * For a single-value field: what happens when two tasks of one superstep write it. `error`
   * (the default of `lastValue`) fails the run with `write-conflict` and `validate()` reports the
   * parallel writers it can see; `last-write-wins` keeps the write of the task planned last.
   */
  readonly onConflict?: 'error' | 'last-write-wins';
}

/** Any state field, whatever its types. */
// biome-ignore lint/suspicious/noExplicitAny: a field's own types are checked where it is declared.
export type AnyStateField = StateField<any, any>;

/** The fields of a workflow's state, by name. */
export type StateDefinition = Record<string, AnyStateField>;

/** The state a definition describes: what nodes and routes read. */
export type StateOf<Definition extends StateDefinition> = {
  [Key in keyof Definition]: Definition[Key] extends StateField<infer Value, infer _Update> ? Value : never;
};

/** A partial update of the state: each present field is one update for that field's reducer. */
export type UpdateOf<Definition extends StateDefinition> = {
  [Key in keyof Definition]?: Definition[Key] extends StateField<infer _Value, infer Update> ? Update : never;
};

/** Names of the fields of a state definition. */
export type FieldName<Definition extends StateDefinition> = keyof Definition & string;

/** Options of a `lastValue` field. */
export interface LastValueOptions {
  /**
   * Two tasks of one superstep writing the field: `error` (default) is a validation issue when
   * the parallel writers are visible in the graph and a `write-conflict` failure at run time
   * otherwise; `last-write-wins` keeps the write of the task planned last (declaration order).
   */
  onConflict?: 'error' | 'last-write-wins';
}

/**
 * A field that keeps the last value written. Two tasks of one superstep writing it is a conflict
 * (LangGraph raises one too): a validation issue when the graph shows it, a `write-conflict`
 * failure otherwise, unless `onConflict: 'last-write-wins'`. Use `appendList` or `mergeWith` for
 * a field that parallel branches write together.
 *
 * @example
 * const state = { question: lastValue(z.string()), attempts: lastValue(z.number(), { default: 0 }) };
 */
export function lastValue<Schema extends z.ZodType>(
  schema: Schema,
  options: LastValueOptions & { default: z.output<Schema> },
): StateField<z.output<Schema>, z.output<Schema>>;
export function lastValue<Schema extends z.ZodType>(
  schema: Schema,
  options?: LastValueOptions,
): StateField<z.output<Schema> | undefined, z.output<Schema>>;
export function lastValue<Schema extends z.ZodType>(
  schema: Schema,
  options?: LastValueOptions & { default?: z.output<Schema> },
): StateField<z.output<Schema> | undefined, z.output<Schema>> {
  const initial = options?.default;
  return {
    kind: 'last-value',
    onConflict: options?.onConflict ?? 'error',
    updateSchema: schema as z.ZodType<z.output<Schema>>,
    valueSchema: schema,
    contractSchema: schema,
    initial: () => initial,
    reduce: (_current, update) => update,
    bindingUpdate: (produced) => produced as z.output<Schema>,
  };
}

/**
 * A list field: each update is a list of items appended in the tasks' planned order, so parallel
 * branches appending together give the same list every time. An output binding appends its one
 * produced value as one item.
 *
 * @example
 * const state = { documents: appendList(z.string()) };
 */
export function appendList<Item extends z.ZodType>(item: Item): StateField<z.output<Item>[], z.output<Item>[]> {
  return {
    kind: 'append',
    updateSchema: z.array(item) as unknown as z.ZodType<z.output<Item>[]>,
    valueSchema: z.array(item),
    contractSchema: item,
    initial: () => [],
    reduce: (current, update) => (update.length === 0 ? current : current.concat(update)),
    bindingUpdate: (produced) => [produced as z.output<Item>],
  };
}

/**
 * A field merged by your own function, applied to each update in the tasks' planned order. The
 * function must be pure and must return a new value rather than change `current`.
 *
 * @example
 * const state = {
 *   votes: mergeWith(z.record(z.string(), z.number()), {
 *     initial: () => ({}),
 *     merge: (current, update) => {
 *       const next = { ...current };
 *       for (const [key, count] of Object.entries(update)) next[key] = (next[key] ?? 0) + count;
 *       return next;
 *     },
 *   }),
 * };
 */
export function mergeWith<Schema extends z.ZodType, UpdateSchema extends z.ZodType = Schema>(
  schema: Schema,
  options: {
    merge: (current: z.output<Schema>, update: z.output<UpdateSchema>) => z.output<Schema>;
    initial: () => z.output<Schema>;
    /** Schema of one update when it differs from the value's schema. */
    updateSchema?: UpdateSchema;
  },
): StateField<z.output<Schema>, z.output<UpdateSchema>> {
  const updateSchema = (options.updateSchema ?? schema) as z.ZodType<z.output<UpdateSchema>>;
  return {
    kind: 'merge',
    updateSchema,
    valueSchema: schema,
    contractSchema: updateSchema,
    initial: options.initial,
    reduce: options.merge,
    bindingUpdate: (produced) => produced as z.output<UpdateSchema>,
  };
}

/** Whether `value` is a state field made by `lastValue`, `appendList` or `mergeWith`. */
export function isStateField(value: unknown): value is AnyStateField {
  if (typeof value !== 'object' || value === null) return false;
  const field = value as Partial<AnyStateField>;
  return (
    (field.kind === 'last-value' || field.kind === 'append' || field.kind === 'merge') &&
    field.updateSchema instanceof z.ZodType &&
    typeof field.reduce === 'function'
  );
}
