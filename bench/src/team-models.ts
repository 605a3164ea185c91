/**
 * The instant fake model of each framework for `bench:team`, all answering from one `TeamScript`
 * (the same sequence for every framework): an AgentLoom `LanguageModel`, a LangChain chat model
 * (`BaseChatModel` with tool calls, which `FakeListChatModel` cannot give) and an OpenAI Agents
 * `Model`. Each one counts the time it spends building its answer as model time.
 */
import type { LanguageModel } from '@agentloom/sdk';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { type Model, type ModelResponse, Usage } from '@openai/agents-core';
import type { ScriptedTurn, TeamScript } from './team-script.js';

/** How a model shows a `transfer` of the script: as the member's name in text, or as a tool call. */
export interface Rendering {
  /** The tool called for a transfer to `to`; absent: the model answers the name as text (a selector). */
  toolName?: (to: string) => string;
  /** The tool call's arguments (JSON). Default `{}`. */
  toolArguments?: string;
}

/** A part of an AgentLoom model stream (the type is not among the SDK's public exports). */
type ModelStreamPart = LanguageModel['doStream'] extends (...args: never[]) => AsyncIterable<infer Part> ? Part : never;

const USAGE = { inputTokens: 100, outputTokens: 50, totalTokens: 150 };

/** An AgentLoom `LanguageModel` answering `answer()` at once, in one stream. */
export function agentloomModel(script: TeamScript, answer: () => ScriptedTurn, rendering: Rendering = {}): LanguageModel {
  let call = 0;
  return {
    specificationVersion: 'v1',
    provider: 'scripted',
    modelId: 'team-bench',
    async *doStream(): AsyncIterable<ModelStreamPart> {
      const parts = script.timed((): ModelStreamPart[] => {
        call += 1;
        const turn = answer();
        if (turn.kind === 'text' || !rendering.toolName) {
          const text = turn.kind === 'text' ? turn.text : turn.to;
          return [
            { type: 'text-delta', text },
            { type: 'finish', finishReason: 'stop', usage: USAGE },
          ];
        }
        return [
          { type: 'tool-call-start', index: 0, id: `call_${call}`, name: rendering.toolName(turn.to) },
          { type: 'tool-call-delta', index: 0, argumentsDelta: rendering.toolArguments ?? '{}' },
          { type: 'finish', finishReason: 'tool-calls', usage: USAGE },
        ];
      });
      for (const part of parts) yield part;
    },
  };
}

/** A LangChain chat model answering `answer()` at once; binding tools returns the model itself. */
export class LangChainScriptedModel extends BaseChatModel {
  private call = 0;

  constructor(
    private readonly script: TeamScript,
    private readonly answer: () => ScriptedTurn,
    private readonly rendering: Rendering = {},
  ) {
    super({});
  }

  _llmType(): string {
    return 'team-bench';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    return this.script.timed(() => {
      this.call += 1;
      const turn = this.answer();
      const usage_metadata = { input_tokens: 100, output_tokens: 50, total_tokens: 150 };
      const message =
        turn.kind === 'text' || !this.rendering.toolName
          ? new AIMessage({ content: turn.kind === 'text' ? turn.text : turn.to, usage_metadata })
          : new AIMessage({
              content: '',
              tool_calls: [
                {
                  id: `call_${this.call}`,
                  name: this.rendering.toolName(turn.to),
                  args: JSON.parse(this.rendering.toolArguments ?? '{}'),
                  type: 'tool_call',
                },
              ],
              usage_metadata,
            });
      return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
    });
  }
}

/** An OpenAI Agents `Model` answering `answer()` at once (no streaming: the runs are not streamed). */
export function openaiModel(script: TeamScript, answer: () => ScriptedTurn, rendering: Rendering = {}): Model {
  let call = 0;
  return {
    async getResponse(): Promise<ModelResponse> {
      return script.timed(() => {
        call += 1;
        const turn = answer();
        const usage = new Usage({ requests: 1, ...USAGE });
        if (turn.kind === 'text' || !rendering.toolName) {
          const text = turn.kind === 'text' ? turn.text : turn.to;
          return {
            usage,
            responseId: `response_${call}`,
            output: [
              {
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text }],
              },
            ],
          };
        }
        return {
          usage,
          responseId: `response_${call}`,
          output: [
            {
              type: 'function_call',
              callId: `call_${call}`,
              name: rendering.toolName(turn.to),
              arguments: rendering.toolArguments ?? '{}',
              status: 'completed',
            },
          ],
        };
      });
    },
    // biome-ignore lint/correctness/useYield: the bench never streams an OpenAI Agents run.
    async *getStreamedResponse() {
      throw new Error('bench:team does not stream');
    },
  };
}
