/**
 * A remote agent for the A2A interop tests, built only from the official `@a2a-js/sdk` server
 * (its `DefaultRequestHandler`, `InMemoryTaskStore` and Express glue, as its README shows), served
 * on 127.0.0.1. It counts every message it receives by `messageId`, so a test can check that a
 * message was received exactly once, and behaves by the message's text:
 * - `wait:<ms> <text>`: working, then completed after `<ms>` with the artifact `done: <text>`;
 * - `ask <text>`: input required; a follow-up message on the same task completes it with
 *   `answered: <reply>`;
 * - `auth <text>`: auth required;
 * - `fail <text>`: failed; `reject <text>`: rejected;
 * - anything else: completed at once with the artifact `done: <text>`.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, type Message, Role, type Task, TaskState } from '@a2a-js/sdk';
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';

/** A running test agent. */
export interface A2ATestServer {
  /** The base URL; the card is at `<url>/.well-known/agent-card.json`. */
  url: string;
  cardUrl: string;
  /** How many times each messageId was received. */
  received: Map<string, number>;
  /** The texts received, in order. */
  texts: string[];
  close(): Promise<void>;
}

function textOf(message: Message): string {
  return message.parts
    .map((part) =>
      part.content?.$case === 'text'
        ? part.content.value
        : part.content?.$case === 'data'
          ? JSON.stringify(part.content.value)
          : '',
    )
    .join('');
}

function agentMessage(taskId: string, contextId: string, text: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

class CountingExecutor implements AgentExecutor {
  constructor(private readonly server: Pick<A2ATestServer, 'received' | 'texts'>) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const message = context.userMessage;
    this.server.received.set(message.messageId, (this.server.received.get(message.messageId) ?? 0) + 1);
    const text = textOf(message);
    this.server.texts.push(text);
    const { taskId, contextId } = context;
    const status = (state: TaskState, reply?: string) => ({
      state,
      message: reply === undefined ? undefined : agentMessage(taskId, contextId, reply),
      timestamp: new Date().toISOString(),
    });
    if (context.task) {
      // A follow-up on an interrupted task: the answer completes it.
      bus.publish({ kind: 'task', data: { ...context.task, status: status(TaskState.TASK_STATE_WORKING) } });
      this.complete(bus, taskId, contextId, `answered: ${text}`);
      bus.finished();
      return;
    }
    const task: Task = {
      id: taskId,
      contextId,
      status: status(TaskState.TASK_STATE_SUBMITTED),
      artifacts: [],
      history: [message],
      metadata: undefined,
    };
    bus.publish({ kind: 'task', data: task });
    const [command = '', ...rest] = text.split(' ');
    const body = rest.join(' ');
    const update = (state: TaskState, reply?: string) =>
      bus.publish({ kind: 'statusUpdate', data: { taskId, contextId, status: status(state, reply), metadata: undefined } });
    if (command === 'ask') update(TaskState.TASK_STATE_INPUT_REQUIRED, `which ${body}?`);
    else if (command === 'auth') update(TaskState.TASK_STATE_AUTH_REQUIRED, 'sign in first');
    else if (command === 'fail') update(TaskState.TASK_STATE_FAILED, `could not ${body}`);
    else if (command === 'reject') update(TaskState.TASK_STATE_REJECTED, `will not ${body}`);
    else if (command.startsWith('wait:')) {
      update(TaskState.TASK_STATE_WORKING);
      await new Promise((resolve) => setTimeout(resolve, Number(command.slice('wait:'.length))));
      this.complete(bus, taskId, contextId, `done: ${body}`);
    } else this.complete(bus, taskId, contextId, `done: ${text}`);
    bus.finished();
  }

  private complete(bus: ExecutionEventBus, taskId: string, contextId: string, text: string): void {
    bus.publish({
      kind: 'artifactUpdate',
      data: {
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: 'answer',
          description: '',
          parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
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
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      },
    });
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.publish({
      kind: 'statusUpdate',
      data: {
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      },
    });
    bus.finished();
  }
}

/** Starts the test agent on 127.0.0.1 (port 0 unless given), with an optional required bearer token. */
export async function startA2ATestServer(options: { port?: number; bearer?: string } = {}): Promise<A2ATestServer> {
  const state = { received: new Map<string, number>(), texts: [] as string[] };
  const app = express();
  let url = '';
  const card = (): AgentCard =>
    ({
      name: 'Counting agent',
      description: 'Echoes what it is asked, counting every message it receives.',
      version: '1.0.0',
      supportedInterfaces: [{ url: `${url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
      capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [
        {
          id: 'echo',
          name: 'Echo',
          description: 'Echoes the task.',
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
  const handler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), new CountingExecutor(state));
  if (options.bearer) {
    app.use('/a2a/jsonrpc', (request, response, next) => {
      if (request.headers.authorization === `Bearer ${options.bearer}`) next();
      else response.status(401).json({ error: 'unauthorized' });
    });
  }
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => card() }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(options.port ?? 0, '127.0.0.1', () => resolve(listening));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    cardUrl: `${url}/.well-known/agent-card.json`,
    ...state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
