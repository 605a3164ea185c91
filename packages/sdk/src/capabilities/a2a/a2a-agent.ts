import { z } from 'zod';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import type { RemoteExecutor } from '../tools/remote-executor.js';
import { type Tool, tool } from '../tools/tool.js';
import { type A2AInputPort, runA2ACall } from './a2a-call.js';
import { fetchAgentCard, selectInterface } from './a2a-card.js';
import type { A2AAuth, JsonRpcEndpoint } from './a2a-json-rpc.js';
import type { A2AAgentCard } from './a2a-types.js';

/** Options of `a2aAgent()`: where the agent is (its card or the card's URL) and how to call it. */
export interface A2AAgentOptions {
  /** The agent card's URL (`https://host/.well-known/agent-card.json`); read on the first call. */
  cardUrl?: string;
  /** The agent card itself, when it is already known (no card request is made). */
  card?: A2AAgentCard;
  /** Credentials sent with every request (card included): a bearer token, headers, or a function. */
  auth?: A2AAuth;
  /**
   * The name the planner's model (or the workflow) calls it by: letters, digits, `_` and `-`, at
   * most 64 characters. Default: the card's name, made to fit. Required with `cardUrl` alone
   * (building an agent reads nothing over the network, B-4).
   */
  name?: string;
  /** When to delegate to it; the model reads it. Default: the card's description. */
  description?: string;
  /** The task contract: the arguments sent to it. Default: `{ task, constraints?, material? }`. */
  inputSchema?: z.ZodType;
  /** Answers the remote agent's questions in an agent run (a workflow node pauses instead). */
  onInputRequired?: A2AInputPort;
  /** Interval of `GetTask` polls (an agent without streaming) and of re-subscriptions. Default 1 s. */
  pollMs?: number;
  /** The `fetch` to use (an egress policy, a proxy, a test). Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/** A remote A2A agent: an executor role, a workflow capability node (`tool`) and a tool. */
export interface A2AAgent extends RemoteExecutor {
  /** The call, for a ReAct or planner tool list and for a workflow capability node. */
  readonly tool: Tool;
}

/** The task arguments sent when no `inputSchema` is given (the same contract as a local executor). */
export const a2aTaskSchema = z
  .object({
    task: z.string().min(1).describe('What the remote agent must do, stated completely: it sees nothing else.'),
    constraints: z.string().optional().describe('Rules and limits it must respect.'),
    material: z.string().optional().describe('Facts, data or text it needs.'),
  })
  .strict();

const optionsSchema = z
  .object({
    cardUrl: z.url({ protocol: /^https?$/ }).optional(),
    card: z
      .object({ name: z.string(), description: z.string(), supportedInterfaces: z.array(z.unknown()) }, 'an A2A agent card')
      .loose()
      .optional(),
    auth: z.unknown().optional(),
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only, 1 to 64 characters')
      .optional(),
    description: z.string().min(1).optional(),
    inputSchema: z.custom<z.ZodType>((value) => value instanceof z.ZodType, 'a zod schema').optional(),
    onInputRequired: z.custom<A2AInputPort>((value) => typeof value === 'function', 'a function').optional(),
    pollMs: z.number().int().min(10).optional(),
    fetch: z.custom<typeof fetch>((value) => typeof value === 'function', 'a function').optional(),
  })
  .strict()
  .superRefine((options, context) => {
    if (!options.cardUrl === !options.card)
      context.addIssue({ code: 'custom', path: ['cardUrl'], message: 'give exactly one of cardUrl and card' });
    if (options.cardUrl && !options.card && !options.name) {
      context.addIssue({ code: 'custom', path: ['name'], message: 'with cardUrl alone, give the name the model calls it by' });
    }
    if (options.cardUrl && !options.card && !options.description) {
      context.addIssue({ code: 'custom', path: ['description'], message: 'with cardUrl alone, say when to delegate to it' });
    }
  });

/** The card's name as a tool name (letters, digits, `_`, `-`; at most 64). */
function toolNameOf(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return cleaned || 'remote_agent';
}

function messageOf(args: unknown, custom: boolean): unknown {
  if (custom) return args;
  const parsed = args as z.output<typeof a2aTaskSchema>;
  const parts = [parsed.task];
  if (parsed.constraints) parts.push(`Constraints:\n${parsed.constraints}`);
  if (parsed.material) parts.push(`Material:\n${parsed.material}`);
  return parts.join('\n\n');
}

/**
 * A remote agent reached over A2A 1.0 (JSON-RPC binding), usable as a Plan–Executor executor role
 * (`executors: [a2aAgent(…)]`), as a workflow capability node (`a2aAgent(…).tool`) and as a tool
 * of any role (N-13). Each call is durable: its message id is journaled before the send and
 * the remote task id before the wait, so a takeover continues the task with `GetTask` /
 * `SubscribeToTask` and never sends the message twice; a send whose answer was lost is reconciled
 * with `ListTasks` before it is recorded `unknown`. Building it reads nothing (B-4): the card is
 * fetched on the first call of a process.
 *
 * @example
 * const researcher = a2aAgent({ cardUrl: 'https://agents.example/.well-known/agent-card.json',
 *   name: 'researcher', description: 'Finds sources on a topic.', auth: { bearer: token } });
 * const agent = new Agent({ mode: 'plan-executor', …, executors: [researcher] });
 */
export function a2aAgent(options: A2AAgentOptions): A2AAgent {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new InvalidConfigurationError(
      'a2aAgent',
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  }
  const name = options.name ?? toolNameOf(options.card?.name ?? '');
  const description = options.description ?? options.card?.description ?? '';
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const custom = options.inputSchema !== undefined;
  let card: Promise<A2AAgentCard> | undefined = options.card ? Promise.resolve(options.card) : undefined;
  const endpointOf = async (signal: AbortSignal): Promise<{ endpoint: JsonRpcEndpoint; streaming: boolean }> => {
    card ??= fetchAgentCard(options.cardUrl as string, options.auth, fetchImpl, signal);
    let resolved: A2AAgentCard;
    try {
      resolved = await card;
    } catch (error) {
      card = undefined; // a failed read is tried again by the next call
      throw error;
    }
    const chosen = selectInterface(resolved, options.cardUrl);
    return {
      endpoint: { agent: name, url: chosen.url, auth: options.auth, fetch: fetchImpl },
      streaming: resolved.capabilities?.streaming === true,
    };
  };
  const call = tool({
    name,
    description: `Delegates a task to the remote A2A agent "${name}" and returns its result. ${description}`,
    parameters: options.inputSchema ?? a2aTaskSchema,
    resumable: true,
    execute: async (args, context) => {
      const { endpoint, streaming } = await endpointOf(context.signal);
      return runA2ACall(
        { endpoint, follow: { streaming, pollMs: options.pollMs ?? 1_000 }, onInputRequired: options.onInputRequired },
        messageOf(args, custom),
        context,
      );
    },
  });
  return Object.freeze({ kind: 'remote-executor' as const, name, description, tool: call });
}
