import type { HookTrigger } from '@agentloom/sdk';
import { z } from '@hono/zod-openapi';

/** The kinds of shared resources (P-5). */
export const resourceTypes = ['prompt', 'skill', 'tool', 'mcp-server', 'hook', 'remote-agent'] as const;
export type ResourceType = (typeof resourceTypes)[number];

/** A header value: literal text, or a reference to a space secret resolved at construction. */
const headerValue = z.union([z.string().max(4000), z.strictObject({ secret: z.string().min(1).max(100) })]);
const headers = z.record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/), headerValue).default({});

/** A prompt: text with `{{variable}}` placeholders. */
export const promptContentSchema = z.strictObject({ text: z.string().min(1).max(100_000) }).openapi('PromptContent');

/** A custom HTTP tool: JSON-Schema parameters, called with the arguments as the JSON body. */
export const toolContentSchema = z
  .strictObject({
    kind: z.literal('http'),
    description: z.string().min(1).max(2000),
    parameters: z
      .record(z.string(), z.unknown())
      .refine((schema) => schema.type === 'object', 'parameters must be a JSON Schema with "type": "object"'),
    request: z.strictObject({ method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']), url: z.url().max(2000), headers }),
    timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  })
  .openapi('ToolContent');

/** An MCP server: streamable HTTP for everyone, stdio for instance admins only (it runs a host process). */
export const mcpServerContentSchema = z
  .discriminatedUnion('transport', [
    z.strictObject({
      transport: z.literal('streamable-http'),
      url: z.url().max(2000),
      headers,
      oauth: z
        .strictObject({
          clientId: z.string().min(1).max(500).optional(),
          clientSecret: z.strictObject({ secret: z.string().min(1).max(100) }).optional(),
          scope: z.string().min(1).max(1000).optional(),
        })
        .optional()
        .openapi({
          description:
            'The server needs an OAuth sign-in (MCP authorization): someone connects it from the console once per space; runs use and refresh the tokens. A pre-registered client by `clientId` (its secret a space secret), else dynamic registration.',
        }),
    }),
    z.strictObject({
      transport: z.literal('stdio'),
      command: z.string().min(1).max(1000),
      args: z.array(z.string().max(4000)).max(100).default([]),
      env: z.record(z.string(), headerValue).default({}),
    }),
  ])
  .openapi('McpServerContent');

/**
 * A remote agent reached over A2A 1.0 (N-13): the URL of its Agent Card, the headers sent with the
 * card request and every call (credentials as `{ secret }` references, sealed in the space's
 * secrets), and when the model should delegate to it. The resource's name is the tool name the
 * model calls it by. Card and calls go through the egress module (P-15.1).
 */
export const remoteAgentContentSchema = z
  .strictObject({
    cardUrl: z.url({ protocol: /^https?$/ }).max(2000),
    headers,
    description: z.string().min(1).max(2000),
    pollMs: z.number().int().min(100).max(60_000).optional(),
  })
  .openapi('RemoteAgentContent');

/**
 * The SDK trigger points (K-4) a hook resource may name. Checked against the SDK's `HookTrigger`,
 * so a name the SDK does not know cannot be offered; the SDK's model-request/response, tool-batch
 * and permission-request points are not offered to webhooks yet.
 */
export const hookResourceTriggers = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
] as const satisfies readonly HookTrigger[];

/** A hook: a webhook called at a lifecycle trigger point (K-4), Claude Code style. */
export const hookContentSchema = z
  .strictObject({
    trigger: z.enum(hookResourceTriggers),
    kind: z.literal('http'),
    url: z.url().max(2000),
    headers,
    matcher: z.array(z.string().min(1).max(200)).max(100).optional(),
    timeoutMs: z.number().int().min(100).max(600_000).default(10_000),
    failClosed: z.boolean().default(false),
  })
  .openapi('HookContent');

/** The content schemas under their OpenAPI component names. */
export const contentSchemaNames = {
  PromptContent: promptContentSchema,
  ToolContent: toolContentSchema,
  McpServerContent: mcpServerContentSchema,
  HookContent: hookContentSchema,
  RemoteAgentContent: remoteAgentContentSchema,
} as const;

/** The JSON content schema of each resource type (skills are uploaded as packages instead). */
export const contentSchemaOf = {
  prompt: promptContentSchema,
  tool: toolContentSchema,
  'mcp-server': mcpServerContentSchema,
  hook: hookContentSchema,
  'remote-agent': remoteAgentContentSchema,
} as const;

/** The built-in capability groups every agent may switch on (P-4.2 capabilities); `read_skill` comes with skills. */
export const builtInTools = [
  {
    name: 'workspace-files',
    tools: ['list_files', 'read_file', 'write_file', 'edit_file', 'grep_files'],
    description: "Files of the agent's file root and session work directory.",
  },
  {
    name: 'run_command',
    tools: ['run_command'],
    description: 'Commands in the isolating sandbox (bubblewrap on the worker, NOT-18).',
  },
  {
    name: 'read_skill',
    tools: ['read_skill'],
    description: "Reads an authorised skill's SKILL.md and files; given with any skill.",
  },
] as const;
