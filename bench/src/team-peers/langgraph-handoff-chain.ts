/** bench:team's handoff chain with LangGraph.js: a swarm (@langchain/langgraph-swarm) of handing-over agents. */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createHandoffTool, createSwarm } from '@langchain/langgraph-swarm';
import type { ChainModels } from '../team-script.js';

export function buildChain(models: ChainModels<BaseChatModel>, checkpointer: BaseCheckpointSaver) {
  const agent = (name: keyof typeof models, prompt: string, next?: string) =>
    createReactAgent({
      llm: models[name],
      tools: next ? [createHandoffTool({ agentName: next })] : [],
      name,
      prompt,
    });
  const agents = [
    agent('triage', 'You sort requests.', 'billing'),
    agent('billing', 'You handle billing.', 'refunds'),
    agent('refunds', 'You handle refunds.', 'payouts'),
    agent('payouts', 'You pay refunds out.', 'audit'),
    agent('audit', 'You check and answer.'),
  ];
  return createSwarm({ agents, defaultActiveAgent: 'triage' }).compile({ checkpointer });
}

export async function runChain(app: ReturnType<typeof buildChain>, task: string, id: string) {
  return app.invoke({ messages: [{ role: 'user', content: task }] }, { configurable: { thread_id: id }, durability: 'sync' });
}
