/**
 * A remote agent for the platform's remote-agent resource tests, built only from the official
 * `@a2a-js/sdk` server (`DefaultRequestHandler`, `InMemoryTaskStore`, its Express glue) on
 * 127.0.0.1. It requires a bearer token on the card and on JSON-RPC when one is given, counts
 * every message by `messageId` and every card request, and completes each task with the artifact
 * `remote says: <text>`.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, type Message, TaskState } from '@a2a-js/sdk';
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';

/** A running remote agent. */
export interface RemoteAgentServer {
  cardUrl: string;
  /** How many times each messageId was received. */
  received: Map<string, number>;
  /** The texts received, in order. */
  texts: string[];
  /** The Authorization header of every request, card included. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

function textOf(message: Message): string {
  return message.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

/** Completes every task at once with one text artifact. */
class AnsweringExecutor implements AgentExecutor {
  constructor(private readonly state: Pick<RemoteAgentServer, 'received' | 'texts'>) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const message = context.userMessage;
    this.state.received.set(message.messageId, (this.state.received.get(message.messageId) ?? 0) + 1);
    const text = textOf(message);
    this.state.texts.push(text);
    const { taskId, contextId } = context;
    const at = () => new Date().toISOString();
    bus.publish({
      kind: 'task',
      data: {
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: at() },
        artifacts: [],
        history: [message],
        metadata: undefined,
      },
    });
    bus.publish({
      kind: 'artifactUpdate',
      data: {
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: 'answer',
          description: '',
          parts: [
            {
              content: { $case: 'text', value: `remote says: ${text}` },
              metadata: undefined,
              filename: '',
              mediaType: 'text/plain',
            },
          ],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      },
    });
    bus.publish({
      kind: 'statusUpdate',
      data: {
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: at() },
        metadata: undefined,
      },
    });
    bus.finished();
  }

  async cancelTask(): Promise<void> {}
}

/** Starts the remote agent on 127.0.0.1, requiring `Authorization: Bearer <bearer>` when given. */
export async function startRemoteAgentServer(options: { bearer?: string } = {}): Promise<RemoteAgentServer> {
  const state = { received: new Map<string, number>(), texts: [] as string[], authorizations: [] as (string | undefined)[] };
  const app = express();
  let url = '';
  const card = (): AgentCard =>
    ({
      name: 'Remote researcher',
      description: 'Answers research questions.',
      version: '1.0.0',
      supportedInterfaces: [{ url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
      capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [
        {
          id: 'research',
          name: 'Research',
          description: 'Answers a research question.',
          tags: ['test'],
          examples: [],
          inputModes: [],
          outputModes: [],
          securityRequirements: [],
        },
      ],
      securitySchemes: {},
      securityRequirements: [],
      signatures: [],
      documentationUrl: '',
      iconUrl: '',
      provider: undefined,
    }) as unknown as AgentCard;
  const handler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), new AnsweringExecutor(state));
  app.use((request, response, next) => {
    state.authorizations.push(request.headers.authorization);
    if (!options.bearer || request.headers.authorization === `Bearer ${options.bearer}`) next();
    else response.status(401).json({ error: 'unauthorized' });
  });
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => card() }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    cardUrl: `${url}/.well-known/agent-card.json`,
    ...state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
