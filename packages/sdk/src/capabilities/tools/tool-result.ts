/**
 * What the model reads for a tool's return value, or why the value cannot be sent. A tool returns
 * text or a JSON value (`Tool.execute`); everything else — a function, a Symbol, a BigInt, a
 * `Map`, a `Set`, a class instance without `toJSON`, a non-finite number, a cyclic object — is
 * refused rather than turned by `JSON.stringify` into empty content, `{}` or a crash, so that the
 * model never reads a silently mangled result. Objects with `toJSON` (a `Date`, a `Buffer`) are
 * sent as that method makes them; a property whose value is `undefined` is absent, as in JSON.
 */
export type ToolResultContent = { ok: true; content: string } | { ok: false; problem: string };

/** Converts a tool's return value to the text the model reads, or says why it is not JSON. */
export function toolResultContent(value: unknown): ToolResultContent {
  if (typeof value === 'string') return { ok: true, content: value };
  if (value === undefined) return { ok: true, content: '' };
  const problem = jsonProblem(value, 'result', new Set());
  if (problem) return { ok: false, problem: `the tool returned a value that is not JSON: ${problem}` };
  return { ok: true, content: JSON.stringify(value) };
}

/**
 * Why a tool's return value is not a JSON value (`undefined` counts as none), or `undefined` when
 * it is one; for callers that keep the value itself (a workflow's capability node).
 */
export function toolResultProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const problem = jsonProblem(value, 'result', new Set());
  return problem ? `the tool returned a value that is not JSON: ${problem}` : undefined;
}

/** The first reason `value` (at `path`) is not a JSON value, or `undefined` when it is one. */
function jsonProblem(value: unknown, path: string, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${path} is ${value}, which JSON cannot hold`;
    case 'undefined':
      return `${path} is undefined`;
    case 'bigint':
      return `${path} is a BigInt (convert it to a string or a number)`;
    case 'symbol':
      return `${path} is a Symbol`;
    case 'function':
      return `${path} is a function (did you mean to call it?)`;
  }
  if (value === null) return undefined;
  const object = value as object;
  if (ancestors.has(object)) return `${path} refers back to an object that contains it (a cycle)`;
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    const converted: unknown = toJSON.call(object, '');
    if (converted === object) return `${path}.toJSON() returned the object itself`;
    return jsonProblem(converted, path, ancestors);
  }
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      for (const [index, item] of object.entries()) {
        const problem = jsonProblem(item, `${path}[${index}]`, ancestors);
        if (problem) return problem;
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(object);
    if (prototype !== Object.prototype && prototype !== null) {
      const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
      const kind = typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a custom prototype';
      const hint = object instanceof Map ? ' (use Object.fromEntries)' : object instanceof Set ? ' (use an array)' : '';
      return `${path} is ${kind}, not a plain object or array${hint}`;
    }
    for (const [key, item] of Object.entries(object)) {
      // An `undefined` property is absent in JSON, as JSON.stringify leaves it out.
      if (item === undefined) continue;
      const problem = jsonProblem(item, `${path}.${key}`, ancestors);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    ancestors.delete(object);
  }
}
