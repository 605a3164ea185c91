/**
 * The provider-neutral conversation format that the engines keep in a role's context and send
 * to a `LanguageModel`. Providers convert it to and from their own wire format.
 */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** Text from the user: the run's question or a supplement. */
export interface UserMessage {
  role: 'user';
  content: string;
}

/** One tool call inside an assistant message; `arguments` is already parsed and complete (S-8). */
export interface ToolCall {
  /** The provider's call id, echoed back in the matching tool result. */
  id: string;
  name: string;
  arguments: unknown;
  /**
   * Set when the model's arguments were not JSON in a response that was otherwise complete: the
   * text as received, kept for the record. `arguments` is then `{}` (what providers are sent
   * back), and the call is answered `invalid-arguments` without running, so that the model can
   * correct itself.
   */
  unparsedArguments?: string;
}

/** A complete model response as kept in context. */
export interface AssistantMessage {
  role: 'assistant';
  content: string;
  toolCalls?: ToolCall[];
  /** Visible reasoning the provider returned, kept so that it can be sent back when required. */
  reasoning?: string;
}

/** The outcome of one tool call, correlated by `toolCallId`. */
export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  toolName: string;
  content: string;
  isError?: boolean;
}

/** Token counts of one model request, or of a whole run. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** An all-zero usage value. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** Adds usage `b` to usage `a` in place and returns `a`. */
export function addUsage(a: Usage, b: Usage): Usage {
  a.inputTokens += b.inputTokens;
  a.outputTokens += b.outputTokens;
  a.totalTokens += b.totalTokens;
  return a;
}
