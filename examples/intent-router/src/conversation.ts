/**
 * The example's conversation: chit-chat starts nothing; a request without its slot is asked for
 * it, and the answer starts the weather agent with `{ "city": "tokyo" }`; an order request with its
 * number starts the order agent, and `算了` (never mind) stops that run; an out-of-scope question
 * starts nothing. Every expectation is checked; a failed one throws.
 */
import { readFileSync } from 'node:fs';
import { compileCatalog } from '@agentloom/intent';
import { Agent, MemoryRunStore } from '@agentloom/sdk';
import { ScriptedModel } from '@agentloom/sdk/testing';
import { ChatHost, type HostTurn } from './host.js';

function check(condition: boolean, message: string, log: (line: string) => void): void {
  if (!condition) throw new Error(`check failed: ${message}`);
  log(`  ok  ${message}`);
}

/** The input of a run: its first user message. */
const inputOf = (request: { messages: ReadonlyArray<{ role: string; content: string }> }) =>
  JSON.parse(request.messages.find((message) => message.role === 'user')?.content ?? '{}') as Record<string, string>;

export async function runConversation(log: (line: string) => void = console.log): Promise<HostTurn[]> {
  const catalog = compileCatalog(JSON.parse(readFileSync(new URL('./catalog.json', import.meta.url), 'utf8')));
  const store = new MemoryRunStore();
  const weather = new Agent({
    name: 'weather',
    mode: 'react',
    prompt: 'You give short weather forecasts for the city in the input.',
    model: new ScriptedModel({ respond: (request) => ({ text: `Sunny in ${inputOf(request).city}, 24 °C.` }) }),
    store,
  });
  const orders = new Agent({
    name: 'order_status',
    mode: 'react',
    prompt: 'You look orders up.',
    // A slow back office: the run is still waiting for the model when the user cancels.
    model: new ScriptedModel({ respond: () => ({ text: 'In transit.', delayMs: 60_000 }) }),
    store,
  });
  const host = new ChatHost(catalog, { 'agent:weather': weather, 'agent:order_status': orders });
  const turns: HostTurn[] = [];
  const say = async (user: string) => {
    const turn = await host.say(user);
    turns.push(turn);
    log(`user: ${user}\n  [${turn.decidedBy}] ${turn.commands.map((command) => command.type).join(', ')}\n  host: ${turn.reply}`);
    return turn;
  };

  await say('你好');
  check(host.runs.length === 0, 'a chit-chat turn starts nothing', log);

  const asked = await say('帮我查一下天气');
  check(
    host.runs.length === 0 && asked.reply === '哪个城市？ Which city?',
    'a request without its city is asked for the city',
    log,
  );
  const answered = await say('东京');
  check(host.runs.length === 1 && host.runs[0]?.action === 'agent:weather', 'the answer starts the weather agent', log);
  check(JSON.stringify(host.runs[0]?.input) === '{"city":"tokyo"}', 'with the slots as its input: {"city":"tokyo"}', log);
  check(answered.reply === 'Sunny in tokyo, 24 °C.', "and the host answers with the agent's output", log);

  await say('我的快递到哪了，单号 20261205');
  const order = host.runs[1];
  check(
    order?.action === 'agent:order_status' && order.input.order_id === '20261205',
    'an order request with its number starts the order agent',
    log,
  );
  await say('算了');
  const stopped = await order?.run.result();
  check(stopped?.status === 'stopped', 'a cancel stops that run', log);

  await say('What is the capital of France?');
  check(host.runs.length === 2, 'an out-of-scope question starts nothing', log);
  return turns;
}
