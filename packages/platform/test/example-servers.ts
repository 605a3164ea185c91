import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { LanguageModel, Message, Tool } from '@agentloom/sdk';
import type { ModelRequest, ModelStreamPart } from '@agentloom/sdk/ports';
import { listen, readJson } from './scripted-servers.js';

interface OpenAiMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  tool_call_id?: string;
  name?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

const textOf = (content: OpenAiMessage['content']) =>
  typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');

/**
 * A real OpenAI-compatible chat-completions server (streaming) that answers with any SDK
 * `LanguageModel`: each HTTP request is translated back into the `ModelRequest` the platform's
 * agent sent (system prompt, messages, tool results) and the model's stream parts are sent as
 * chunks. Workflow tests serve an example's offline model this way, so the platform runs it over
 * HTTP exactly as the example runs it in process. `calls` counts requests.
 */
export class LanguageModelServer {
  readonly server: Server;
  url = '';
  calls = 0;
  /** Held while it is set: each request (or each `holdWhen` picks) waits for it (crash tests kill a worker meanwhile). */
  gate: Promise<void> | undefined;
  /** Which requests the gate holds; all of them when unset. */
  holdWhen: ((request: ModelRequest) => boolean) | undefined;
  /** Requests received, by system prompt (a redone model call shows as one more). */
  readonly callsBySystem = new Map<string, number>();

  constructor(private readonly model: LanguageModel) {
    this.server = createServer((request, response) => {
      void this.answer(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500);
        response.end(String(error));
      });
    });
  }

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.calls += 1;
    const body = await readJson(request);
    const wire = (body.messages ?? []) as OpenAiMessage[];
    const toolNames = new Map<string, string>();
    const messages: Message[] = [];
    for (const message of wire) {
      if (message.role === 'user') messages.push({ role: 'user', content: textOf(message.content) });
      else if (message.role === 'assistant') {
        const toolCalls = (message.tool_calls ?? []).map((call) => {
          toolNames.set(call.id, call.function.name);
          return { id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments || '{}') as unknown };
        });
        messages.push({ role: 'assistant', content: textOf(message.content), ...(toolCalls.length > 0 ? { toolCalls } : {}) });
      } else if (message.role === 'tool') {
        const id = message.tool_call_id ?? '';
        messages.push({ role: 'tool', toolCallId: id, toolName: toolNames.get(id) ?? '', content: textOf(message.content) });
      }
    }
    const system = wire
      .filter((message) => message.role === 'system' || message.role === 'developer')
      .map((message) => textOf(message.content))
      .join('\n');
    this.callsBySystem.set(system, (this.callsBySystem.get(system) ?? 0) + 1);
    const modelRequest: ModelRequest = { system, messages, tools: [] };
    if (this.gate && (this.holdWhen?.(modelRequest) ?? true)) await this.gate;
    if (response.destroyed) return;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      response.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'example', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
      );
    const parts: AsyncIterable<ModelStreamPart> = this.model.doStream(modelRequest, { signal: new AbortController().signal });
    for await (const part of parts) {
      if (part.type === 'text-delta') chunk({ content: part.text });
      else if (part.type === 'tool-call-start')
        chunk({
          tool_calls: [{ index: part.index, id: part.id, type: 'function', function: { name: part.name, arguments: '' } }],
        });
      else if (part.type === 'tool-call-delta')
        chunk({ tool_calls: [{ index: part.index, function: { arguments: part.argumentsDelta } }] });
      else if (part.type === 'finish') chunk({}, part.finishReason === 'tool-calls' ? 'tool_calls' : 'stop');
    }
    response.write(
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'example', choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } })}\n\n`,
    );
    response.end('data: [DONE]\n\n');
  }
}

/**
 * A real HTTP endpoint per SDK tool (`POST /<tool name>` with the arguments as the JSON body),
 * so that a platform custom HTTP tool runs an example's own tool code. The call identity the
 * platform sends (`X-AgentLoom-Run-Id`, `X-AgentLoom-Operation-Id`) becomes the tool's context.
 * `calls` counts calls by tool and operation (a call done twice shows as 2).
 */
export class ToolServer {
  readonly server: Server;
  url = '';
  readonly calls = new Map<string, number>();

  constructor(tools: readonly Tool[]) {
    const byName = new Map(tools.map((item) => [item.name, item]));
    this.server = createServer((request, response) => {
      void (async () => {
        const tool = byName.get((request.url ?? '').slice(1));
        if (!tool) {
          response.writeHead(404).end('no such tool');
          return;
        }
        const args = await readJson(request);
        const runId = String(request.headers['x-agentloom-run-id'] ?? '');
        const operationId = String(request.headers['x-agentloom-operation-id'] ?? '');
        const key = `${tool.name} ${operationId}`;
        this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
        const result = await tool.execute(tool.parameters.parse(args), {
          runId,
          sessionId: '',
          taskId: operationId,
          operationId,
          attempt: 1,
          signal: new AbortController().signal,
        });
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(typeof result === 'string' ? result : JSON.stringify(result));
      })().catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500);
        response.end(String(error));
      });
    });
  }

  async start(): Promise<this> {
    this.url = await listen(this.server);
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
