import type { ActionRef, SlotType } from '../catalog/catalog-schema.js';
import type { SlotValue } from '../commands/command.js';

/** An action as the model sees it: only what it needs, and only whitelisted metadata. */
export interface GeneratorAction {
  action: ActionRef;
  description: string;
  slots: Array<{
    name: string;
    type: SlotType;
    required: boolean;
    description?: string;
    /** The allowed values of a category slot (canonical values only). */
    allowedValues?: string[];
  }>;
  /** The action's metadata restricted to the catalog's `generator.visibleMetadata` keys. */
  metadata: Record<string, unknown>;
}

/** What the model layer asks a `CommandGenerator`. */
export interface CommandGeneratorRequest {
  utterance: string;
  /** The host's dialogue state, as passed to `understand`. */
  state: { activeAction?: ActionRef; slots: Record<string, SlotValue>; askedSlot?: string };
  /** The `generator.topK` most relevant actions of the catalog (the active one always included), most relevant first. */
  actions: GeneratorAction[];
  /**
   * A ready prompt that describes the task, the actions, the state and the utterance, and asks
   * for `{"commands": [...]}` as JSON: adapters may send it as is or build their own from the fields.
   */
  prompt: { system: string; user: string };
  /** JSON Schema (2020-12) of the expected answer, `{ commands: Command[] }`, for models with structured output. */
  outputSchema: Record<string, unknown>;
}

/**
 * The model port of the third layer (N-14): given the request, returns the model's answer —
 * parsed JSON (`{ commands: [...] }` or a bare array) or the raw text holding it. The answer is
 * data: the model layer parses and validates it against the catalog, and nothing in it is ever
 * executed. `@agentloom/sdk/intent` adapts an SDK `LanguageModel` to this port.
 */
export interface CommandGenerator {
  readonly name: string;
  generate(request: CommandGeneratorRequest, options: { signal?: AbortSignal }): Promise<unknown>;
}
