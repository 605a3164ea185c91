import type * as conventions from '@opentelemetry/semantic-conventions/incubating';
import type { FinishReason } from '../model/language-model.js';

/**
 * The names of the OpenTelemetry GenAI semantic conventions the spans use, version
 * `GENAI_CONVENTIONS_VERSION` (docs/telemetry.md, ADR 0015). Each one is checked at compile time
 * against the constant `@opentelemetry/semantic-conventions` 1.45.0 exports from its incubating
 * entry (`satisfies typeof …`): a misspelt name, or one the package renames, fails the type
 * check. The values are copied rather than imported, as that package asks of instrumentation
 * libraries: its incubating entry may break in a minor release, and loading it costs every
 * process that imports the SDK some 40 ms for names it already knows.
 */

/**
 * The GenAI conventions version the spans follow: v1.41.0 of open-telemetry/semantic-conventions,
 * the last release that defines them in that repository and the one whose definitions
 * `@opentelemetry/semantic-conventions` 1.45.0 carries.
 */
export const GENAI_CONVENTIONS_VERSION = '1.41.0';
/** Schema URL of that version, given to the default tracer. */
export const GENAI_SCHEMA_URL = `https://opentelemetry.io/schemas/${GENAI_CONVENTIONS_VERSION}`;

export const ATTR_ERROR_TYPE = 'error.type' satisfies typeof conventions.ATTR_ERROR_TYPE;
export const ATTR_SERVER_ADDRESS = 'server.address' satisfies typeof conventions.ATTR_SERVER_ADDRESS;
export const ATTR_SERVER_PORT = 'server.port' satisfies typeof conventions.ATTR_SERVER_PORT;
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name' satisfies typeof conventions.ATTR_GEN_AI_OPERATION_NAME;
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name' satisfies typeof conventions.ATTR_GEN_AI_PROVIDER_NAME;
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id' satisfies typeof conventions.ATTR_GEN_AI_CONVERSATION_ID;
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name' satisfies typeof conventions.ATTR_GEN_AI_AGENT_NAME;
export const ATTR_GEN_AI_AGENT_DESCRIPTION =
  'gen_ai.agent.description' satisfies typeof conventions.ATTR_GEN_AI_AGENT_DESCRIPTION;
export const ATTR_GEN_AI_WORKFLOW_NAME = 'gen_ai.workflow.name' satisfies typeof conventions.ATTR_GEN_AI_WORKFLOW_NAME;
export const ATTR_GEN_AI_REQUEST_MODEL = 'gen_ai.request.model' satisfies typeof conventions.ATTR_GEN_AI_REQUEST_MODEL;
export const ATTR_GEN_AI_REQUEST_MAX_TOKENS =
  'gen_ai.request.max_tokens' satisfies typeof conventions.ATTR_GEN_AI_REQUEST_MAX_TOKENS;
export const ATTR_GEN_AI_REQUEST_STREAM = 'gen_ai.request.stream' satisfies typeof conventions.ATTR_GEN_AI_REQUEST_STREAM;
export const ATTR_GEN_AI_RESPONSE_ID = 'gen_ai.response.id' satisfies typeof conventions.ATTR_GEN_AI_RESPONSE_ID;
export const ATTR_GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model' satisfies typeof conventions.ATTR_GEN_AI_RESPONSE_MODEL;
export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS =
  'gen_ai.response.finish_reasons' satisfies typeof conventions.ATTR_GEN_AI_RESPONSE_FINISH_REASONS;
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS =
  'gen_ai.usage.input_tokens' satisfies typeof conventions.ATTR_GEN_AI_USAGE_INPUT_TOKENS;
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS =
  'gen_ai.usage.output_tokens' satisfies typeof conventions.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS;
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name' satisfies typeof conventions.ATTR_GEN_AI_TOOL_NAME;
export const ATTR_GEN_AI_TOOL_DESCRIPTION = 'gen_ai.tool.description' satisfies typeof conventions.ATTR_GEN_AI_TOOL_DESCRIPTION;
export const ATTR_GEN_AI_TOOL_TYPE = 'gen_ai.tool.type' satisfies typeof conventions.ATTR_GEN_AI_TOOL_TYPE;
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id' satisfies typeof conventions.ATTR_GEN_AI_TOOL_CALL_ID;
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS =
  'gen_ai.tool.call.arguments' satisfies typeof conventions.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS;
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result' satisfies typeof conventions.ATTR_GEN_AI_TOOL_CALL_RESULT;

export const OPERATION_CHAT = 'chat' satisfies typeof conventions.GEN_AI_OPERATION_NAME_VALUE_CHAT;
export const OPERATION_INVOKE_AGENT = 'invoke_agent' satisfies typeof conventions.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT;
export const OPERATION_EXECUTE_TOOL = 'execute_tool' satisfies typeof conventions.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL;
export const OPERATION_INVOKE_WORKFLOW =
  'invoke_workflow' satisfies typeof conventions.GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW;

/**
 * `gen_ai.tool.type` of every tool an agent calls: the model chooses the arguments and AgentLoom
 * runs the tool in the agent's process ("function" in the conventions' terms), MCP tools included
 * (the call is made by the agent's process). The package defines no constant for it.
 */
export const TOOL_TYPE_FUNCTION = 'function';

/**
 * The conventions' finish reasons (the `FinishReason` enum of `gen-ai-output-messages.json`;
 * the package defines no constants for them) for the model port's. `other` — a reason the
 * adapter does not know, or Anthropic's `pause_turn` — has no counterpart and is reported
 * `error`, the conventions' value for a generation that did not end as asked.
 */
const FINISH_REASONS: Readonly<Record<FinishReason, 'stop' | 'tool_call' | 'length' | 'content_filter' | 'error'>> = {
  stop: 'stop',
  'tool-calls': 'tool_call',
  length: 'length',
  'content-filter': 'content_filter',
  other: 'error',
};

/** The conventions' value of a model port finish reason. */
export function conventionalFinishReason(reason: FinishReason): string {
  return FINISH_REASONS[reason];
}

/** AgentLoom's own attributes (run identity and outcome), outside the conventions' namespaces. */
export const ATTR_RUN_ID = 'agentloom.run.id';
export const ATTR_RUN_RESUMED = 'agentloom.run.resumed';
export const ATTR_RUN_STATUS = 'agentloom.run.status';
export const ATTR_RUN_REASON = 'agentloom.run.reason';
export const ATTR_RUN_LOOPS = 'agentloom.run.loops';
export const ATTR_RUN_OUTPUT = 'agentloom.run.output';
export const ATTR_TASK_ID = 'agentloom.task.id';
export const ATTR_TASK_STATUS = 'agentloom.task.status';
export const ATTR_OPERATION_ID = 'agentloom.operation.id';
export const ATTR_ATTEMPT = 'agentloom.attempt';
export const ATTR_WORKFLOW_NODE = 'agentloom.workflow.node';
export const ATTR_WORKFLOW_STEP = 'agentloom.workflow.step';
