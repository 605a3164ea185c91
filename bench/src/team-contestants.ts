/**
 * The contestants of `bench:team`: each framework's team program (`team-peers/`) on one kind of
 * store, wired to its fake models, with what the bench needs around it — read back the member
 * texts (to check that every framework ran the same conversation) and the bytes the framework
 * persisted for the run. Nothing here is counted as the framework's code.
 */
import type { RunStore, TeamOutput } from '@agentloom/sdk';
import type { BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { MemorySession } from '@openai/agents-core';
import { agentloomModel, LangChainScriptedModel, openaiModel, type Rendering } from './team-models.js';
import * as agentloomChat from './team-peers/agentloom-group-chat.js';
import * as agentloomChain from './team-peers/agentloom-handoff-chain.js';
import * as langgraphChat from './team-peers/langgraph-group-chat.js';
import * as langgraphChain from './team-peers/langgraph-handoff-chain.js';
import * as openaiChat from './team-peers/openai-group-chat.js';
import * as openaiChain from './team-peers/openai-handoff-chain.js';
import { CHAIN_MEMBERS, CHAT_MEMBERS, type ScriptedTurn, TASK, type TeamScript } from './team-script.js';
import type { StoreKind, StorePair } from './workflow-stores.js';

export type Framework = 'AgentLoom' | 'LangGraph' | 'OpenAI Agents';
export type Scenario = 'group chat' | 'handoff chain';

/** What one run gave: the member texts in order, and the bytes its framework persisted for it. */
export interface Outcome {
  texts: string[];
  bytes(): Promise<number>;
}

/** A framework's team, built once on its store, run many times (each run a new id). */
export interface Contestant {
  framework: Framework;
  /** What the framework persisted the runs to. */
  store: string;
  /** A non-default option the team runs with: shown beside the defaults, never counted for a target. */
  variant?: string;
  run(id: string): Promise<Outcome>;
}

const transfer = (to: string) => `transfer_to_${to}`;

/** The fake models of one scenario, of one framework's kind, all answering from `script`. */
function modelsOf<M>(
  scenario: Scenario,
  script: TeamScript,
  make: (answer: () => ScriptedTurn, rendering: Rendering) => M,
  selector: Rendering,
): Record<string, M> {
  if (scenario === 'group chat') {
    return {
      ...Object.fromEntries(CHAT_MEMBERS.map((name) => [name, make(() => script.chat(name), {})])),
      selector: make(() => script.chat('selector'), selector),
    };
  }
  return Object.fromEntries(CHAIN_MEMBERS.map((name) => [name, make(() => script.chain(name), { toolName: transfer })]));
}

/**
 * AgentLoom's team of `scenario` on `stores.agentloom`; with `choiceWithTurn`, the group chat's
 * selector choice is saved with the member's turn (`saveChoice: 'with-turn'`, not the default).
 */
export function agentloomContestant(
  scenario: Scenario,
  script: TeamScript,
  stores: StorePair,
  kind: StoreKind,
  choiceWithTurn = false,
): Contestant {
  // The selector answers a member's name as text (a selector model), the chain's members call transfer tools.
  const models = modelsOf(scenario, script, (answer, rendering) => agentloomModel(script, answer, rendering), {});
  const store: RunStore = stores.agentloom;
  const team =
    scenario === 'group chat'
      ? agentloomChat.buildChat(
          models as Parameters<typeof agentloomChat.buildChat>[0],
          store,
          choiceWithTurn ? { saveChoice: 'with-turn' } : {},
        )
      : agentloomChain.buildChain(models as Parameters<typeof agentloomChain.buildChain>[0], store);
  return {
    framework: 'AgentLoom',
    store: kind,
    ...(choiceWithTurn ? { variant: "saveChoice: 'with-turn'" } : {}),
    async run(id) {
      const result =
        scenario === 'group chat' ? await agentloomChat.runChat(team, TASK, id) : await agentloomChain.runChain(team, TASK, id);
      if (result.status !== 'succeeded') throw new Error(`AgentLoom ${scenario}: run ${result.status}`);
      const output = result.output as TeamOutput;
      const texts = scenario === 'group chat' ? (output.transcript ?? []).map((message) => message.text) : [output.answer ?? ''];
      return { texts, bytes: () => stores.agentloomBytes(result.runId) };
    },
  };
}

/** LangGraph's team of `scenario` (supervisor or swarm) with `stores.langgraph` as its checkpointer. */
export function langgraphContestant(scenario: Scenario, script: TeamScript, stores: StorePair, kind: StoreKind): Contestant {
  const models = modelsOf(scenario, script, (answer, rendering) => new LangChainScriptedModel(script, answer, rendering), {
    toolName: transfer,
  });
  const checkpointer = stores.langgraph as BaseCheckpointSaver;
  const chat = scenario === 'group chat' ? langgraphChat.buildChat(models as never, checkpointer) : undefined;
  const chain = scenario === 'handoff chain' ? langgraphChain.buildChain(models as never, checkpointer) : undefined;
  return {
    framework: 'LangGraph',
    store: kind === 'memory' ? 'memory (MemorySaver)' : kind,
    async run(id) {
      const result = chat ? await langgraphChat.runChat(chat, TASK, id) : await langgraphChain.runChain(chain as never, TASK, id);
      const messages = (result as { messages: BaseMessage[] }).messages;
      const texts = chat
        ? messages
            .filter((message) => message.type === 'ai' && /^(writer|critic) #/.test(String(message.content)))
            .map((message) => String(message.content))
        : [String(messages.at(-1)?.content)];
      return { texts, bytes: () => stores.langgraphBytes(id) };
    },
  };
}

/**
 * OpenAI Agents' team of `scenario`: it has no checkpointer, so its runs are kept in a
 * `MemorySession` (the session store the SDK ships for JavaScript), whose items are counted.
 */
export function openaiContestant(scenario: Scenario, script: TeamScript): Contestant {
  const models = modelsOf(scenario, script, (answer, rendering) => openaiModel(script, answer, rendering), {
    toolName: (to) => to,
    toolArguments: JSON.stringify({ input: 'Your turn.' }),
  });
  const agent = scenario === 'group chat' ? openaiChat.buildChat(models as never) : openaiChain.buildChain(models as never);
  return {
    framework: 'OpenAI Agents',
    store: 'memory (MemorySession)',
    async run() {
      const session = new MemorySession();
      const result =
        scenario === 'group chat'
          ? await openaiChat.runChat(agent, TASK, session)
          : await openaiChain.runChain(agent, TASK, session);
      const texts =
        scenario === 'group chat'
          ? result.newItems.flatMap((item) => (item.type === 'tool_call_output_item' ? [String(item.output)] : []))
          : [String(result.finalOutput)];
      return { texts, bytes: async () => Buffer.byteLength(JSON.stringify(await session.getItems())) };
    },
  };
}
