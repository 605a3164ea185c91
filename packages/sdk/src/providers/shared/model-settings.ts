import type { ModelSettings, ToolDefinition } from '../../model/language-model.js';

/** How much thinking a request asks for. */
export type ThinkingEffort = NonNullable<ModelSettings['thinking']>['effort'] & string;

/**
 * Merges the settings a model was created with and those of one request; the request wins field
 * by field. Model-level defaults let an application switch thinking on for every call of a model
 * without the engine having to pass settings on each request.
 */
export function resolveModelSettings(defaults: ModelSettings | undefined, request: ModelSettings | undefined): ModelSettings {
  return { ...defaults, ...request };
}

/**
 * The JSON Schema of a tool's input as providers accept it: the top-level `$schema` marker that
 * zod writes is dropped, because some OpenAI-compatible servers reject unknown keywords there and
 * no provider needs it. Everything else is sent unchanged.
 */
export function toProviderInputSchema(definition: ToolDefinition): Record<string, unknown> {
  const { $schema: _schemaMarker, ...schema } = definition.inputSchema;
  return schema;
}
