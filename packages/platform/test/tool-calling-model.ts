import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listen, readJson } from './scripted-servers.js';

/**
 * A real OpenAI-compatible chat-completions server (streaming) that calls whichever tool the
 * question names: `call <tool> <json arguments>` gets one call of `<tool>`, then — once the
 * tool's result is in the conversation — the answer `answer: <result>`. It records the tool
 * names each request offered, so tests can see which tools an agent was given.
 */
export class ToolCallingModelServer {
  readonly server: Server;
  url = '';
  /** The tool names offered in each request. */
  readonly offered: string[][] = [];

  constructor() {
    this.server = createServer((request, response) => {
      void this.answer(request, response);
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
    const body = await readJson(request);
    const messages = (body.messages ?? []) as { role: string; content?: string | null }[];
    const tools = (body.tools ?? []) as { function: { name: string } }[];
    this.offered.push(tools.map((tool) => tool.function.name));
    const question = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
    const toolResult = [...messages].reverse().find((message) => message.role === 'tool')?.content;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      response.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
      );
    const wanted = /call (\S+) (\{.*\})/.exec(question);
    let finish = 'stop';
    if (wanted && toolResult === undefined) {
      send({
        role: 'assistant',
        tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: wanted[1], arguments: wanted[2] } }],
      });
      finish = 'tool_calls';
    } else send({ role: 'assistant', content: toolResult === undefined ? 'hello' : `answer: ${toolResult}` });
    send({}, finish);
    response.write(
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } })}\n\n`,
    );
    response.end('data: [DONE]\n\n');
  }
}
