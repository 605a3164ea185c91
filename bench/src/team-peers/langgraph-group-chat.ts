/** bench:team's group chat with LangGraph.js: a supervisor (@langchain/langgraph-supervisor) picks each speaker. */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createSupervisor } from '@langchain/langgraph-supervisor';
import type { ChatModels } from '../team-script.js';

export function buildChat(models: ChatModels<BaseChatModel>, checkpointer: BaseCheckpointSaver) {
  const writer = createReactAgent({
    llm: models.writer,
    tools: [],
    name: 'writer',
    description: 'writes the note',
    prompt: 'You write the release note.',
  });
  const critic = createReactAgent({
    llm: models.critic,
    tools: [],
    name: 'critic',
    description: 'checks the note',
    prompt: 'You check the release note.',
  });
  return createSupervisor({ agents: [writer, critic], llm: models.selector, prompt: 'Pick who speaks next.' }).compile({
    checkpointer,
  });
}

export async function runChat(app: ReturnType<typeof buildChat>, task: string, id: string) {
  return app.invoke(
    { messages: [{ role: 'user', content: task }] },
    { configurable: { thread_id: id }, recursionLimit: 100, durability: 'sync' },
  );
}
