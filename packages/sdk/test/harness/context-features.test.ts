/**
 * The context features (N-15, issue 37 item 5), through the public API: user instructions and the
 * session note at the end of the context, context entries (keywords, pattern, constant, budget),
 * the request report (section sizes, system-prefix hash) in the journal's events, message shaping
 * by provider, and user commands.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentRunEvent,
  type ContextOptions,
  createAgent,
  InProcessFactStore,
  InvalidConfigurationError,
  InvalidDefinitionError,
  MemoryRunStore,
  type Message,
  mergeAdjacentMessages,
  RunClient,
  tool,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a word up.',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `The ${word} is stored in warehouse 7.`,
});

/** A model that calls `lookup` once, then answers. */
function lookupModel() {
  return new ScriptedModel({
    respond: (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { text: 'Found it.' }
        : { toolCalls: [{ name: 'lookup', arguments: { word: 'invoice' } }] },
  });
}

function agentWith(model: ScriptedModel, context: ContextOptions, store = new MemoryRunStore()) {
  return new Agent({ name: 'helper', mode: 'react', model, prompt: 'You help.', tools: [lookup], context, store });
}

async function finishes(agent: Agent, options: Parameters<Agent['run']>[0]) {
  const run = agent.run(options);
  const events: AgentRunEvent[] = [];
  for await (const event of run.events()) events.push(event);
  const result = await run.result();
  expect(result.status).toBe('succeeded');
  return { events, result, finishes: events.filter((event) => event.type === 'model-call-finish') };
}

const lastText = (messages: readonly Message[]) => messages.at(-1)?.content ?? '';

describe('user instructions, session note and context entries (N-15)', () => {
  it('appends the entries that apply, the instructions and the note after the conversation, within the budget', async () => {
    const model = lookupModel();
    const agent = agentWith(model, {
      userInstructions: 'Answer in French.',
      entryBudgetTokens: 40,
      entries: [
        { id: 'house-style', constant: true, content: 'Use short sentences.' },
        { id: 'invoices', keywords: ['INVOICE'], content: 'Invoices are numbered INV-nnnn.' },
        { id: 'orders', pattern: 'order\\s+#\\d+', content: 'Orders ship in two days.' },
        { id: 'refunds', keywords: ['refund'], content: 'Refunds take a week.' },
        { id: 'huge', keywords: ['invoice'], content: 'x'.repeat(400) },
      ],
    });
    const { finishes: calls } = await finishes(agent, {
      sessionId: 's-entries',
      input: 'Where is the invoice for order #42?',
      sessionNote: 'The user is Ana, an accountant.',
    });
    const [first] = model.requests;
    const tail = lastText(first?.messages ?? []);
    // Order: entries (in configured order), then instructions, then the note, all after the question.
    expect(first?.messages.at(-2)).toEqual({ role: 'user', content: 'Where is the invoice for order #42?' });
    expect(tail.indexOf('Use short sentences.')).toBeLessThan(tail.indexOf('Invoices are numbered'));
    expect(tail.indexOf('Invoices are numbered')).toBeLessThan(tail.indexOf('Orders ship in two days.'));
    expect(tail.indexOf('Orders ship')).toBeLessThan(tail.indexOf('Answer in French.'));
    expect(tail.indexOf('Answer in French.')).toBeLessThan(tail.indexOf('The user is Ana'));
    expect(tail).not.toContain('Refunds take a week.');
    expect(tail).not.toContain('xxxx'); // over the budget: left out
    // The tail is rebuilt for each request and never stored in the context.
    const second = model.requests[1]?.messages ?? [];
    expect(second.filter((message) => message.content.includes('Answer in French.'))).toHaveLength(1);
    expect(lastText(second)).toContain('The user is Ana');
    // The report of each request is in the journal's events.
    const report = calls[0]?.type === 'model-call-finish' ? calls[0].context : undefined;
    expect(report?.entries).toEqual(['house-style', 'invoices', 'orders']);
    expect(report?.sections.entries).toBeGreaterThan(0);
    expect(report?.sections.instructions).toBeGreaterThan(0);
    expect(report?.sections.note).toBeGreaterThan(0);
    expect(report?.sections.system).toBeGreaterThan(0);
    expect(report?.sections.tools).toBeGreaterThan(0);
    expect(report?.prefixHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('reads the same report back from the stored journal, and keeps the note on a resume', async () => {
    const store = new MemoryRunStore();
    const agent = agentWith(lookupModel(), { userInstructions: 'Be brief.' }, store);
    const { result } = await finishes(agent, { sessionId: 's-stored', input: 'Find the invoice.', sessionNote: 'VIP' });
    const stored = await new RunClient({ store }).readEvents(result.runId);
    const reports = stored.flatMap((event) => (event.type === 'model-call-finish' && 'context' in event ? [event.context] : []));
    expect(reports).toHaveLength(2);
    expect(reports[0]?.sections.note).toBeGreaterThan(0);
    // Same system prompt and tools: the prefix is the same, so a provider's cache can be reused.
    expect(reports[0]?.prefixHash).toBe(reports[1]?.prefixHash);
  });

  it('a run a host created with createRun carries its session note to the executor', async () => {
    const store = new MemoryRunStore();
    const model = lookupModel();
    const agent = agentWith(model, {}, store);
    const client = new RunClient({ store });
    const { runId } = await client.createRun({
      kind: 'agent',
      name: 'helper',
      sessionId: 's-created',
      input: 'Find it.',
      sessionNote: 'Prefers email.',
    });
    await agent.run({ sessionId: 's-created', runId }).result();
    expect(lastText(model.requests[0]?.messages ?? [])).toBe('<session-note>\nPrefers email.\n</session-note>');
  });

  it('strict shaping folds the tail into the one system prompt: a new entry changes the prefix hash (a cache miss)', async () => {
    const model = lookupModel();
    const agent = agentWith(model, {
      messageShaping: { scripted: 'strict', '*': 'none' },
      userInstructions: 'Answer in French.',
      // The tool's result mentions the warehouse: the entry applies from the second request on.
      entries: [{ id: 'warehouses', keywords: ['warehouse'], content: 'Warehouse 7 is in Lyon.' }],
    });
    const { finishes: calls } = await finishes(agent, { sessionId: 's-strict', input: 'Find the invoice.' });
    const [first, second] = model.requests;
    expect(first?.system).toContain('Answer in French.');
    expect(first?.system).not.toContain('Warehouse 7 is in Lyon.');
    expect(second?.system).toContain('Warehouse 7 is in Lyon.');
    expect(first?.messages).toEqual([{ role: 'user', content: 'Find the invoice.' }]);
    const hashes = calls.map((event) => (event.type === 'model-call-finish' ? event.context?.prefixHash : undefined));
    expect(hashes[0]).not.toBe(hashes[1]);
    expect(calls[1]?.type === 'model-call-finish' && calls[1].context?.shaping).toBe('strict');
  });

  it('merge shaping joins adjacent same-role messages; none leaves them; the mode is chosen by provider', async () => {
    const merged = lookupModel();
    await finishes(agentWith(merged, { messageShaping: { scripted: 'merge' }, userInstructions: 'Be brief.' }), {
      sessionId: 's-merge',
      input: 'Find the invoice.',
    });
    expect(merged.requests[0]?.messages).toEqual([
      { role: 'user', content: 'Find the invoice.\n\n<user-instructions>\nBe brief.\n</user-instructions>' },
    ]);
    const other = lookupModel();
    await finishes(agentWith(other, { messageShaping: { anthropic: 'merge' }, userInstructions: 'Be brief.' }), {
      sessionId: 's-none',
      input: 'Find the invoice.',
    });
    expect(other.requests[0]?.messages).toHaveLength(2);
    expect(
      mergeAdjacentMessages([
        { role: 'assistant', content: 'Let me look.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
        { role: 'tool', toolCallId: 'c1', toolName: 'lookup', content: 'a' },
        { role: 'tool', toolCallId: 'c2', toolName: 'lookup', content: 'b' },
      ]),
    ).toEqual([
      { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'lookup', content: 'a' },
      { role: 'tool', toolCallId: 'c2', toolName: 'lookup', content: 'b' },
    ]);
  });

  it('refuses an entry without a trigger, a pattern that does not compile and duplicate ids', () => {
    const build = (context: ContextOptions) => () => agentWith(lookupModel(), context);
    expect(build({ entries: [{ id: 'a', content: 'x' }] })).toThrow(InvalidConfigurationError);
    expect(build({ entries: [{ id: 'a', content: 'x', pattern: '(' }] })).toThrow(/regular expression/);
    expect(
      build({
        entries: [
          { id: 'a', content: 'x', constant: true },
          { id: 'a', content: 'y', constant: true },
        ],
      }),
    ).toThrow(/duplicate id/);
  });
});

describe('user commands (N-15)', () => {
  const commands = [
    { name: 'summarize', prompt: 'Summarise {{args}} in three bullet points.' },
    { name: 'standup', description: 'Daily report', prompt: 'Write my stand-up report.' },
  ];

  it('expands /name to the stored prompt; an unknown /name and a command mid-text stay as typed', async () => {
    const model = new ScriptedModel({ respond: () => ({ text: 'ok' }) });
    const agent = new Agent({ name: 'helper', mode: 'react', model, prompt: 'You help.', context: { commands } });
    await finishes(agent, { sessionId: 'c1', input: '/summarize the Q3 report' });
    await finishes(agent, { sessionId: 'c2', input: '/standup yesterday I fixed the build' });
    await finishes(agent, { sessionId: 'c3', input: '/etc/hosts is broken' });
    await finishes(agent, { sessionId: 'c4', input: 'please run /standup' });
    expect(model.requests.map((request) => lastText(request.messages))).toEqual([
      'Summarise the Q3 report in three bullet points.',
      'Write my stand-up report.\n\nyesterday I fixed the build',
      '/etc/hosts is broken',
      'please run /standup',
    ]);
    // Never a tool: the model cannot trigger a command.
    expect(model.requests.every((request) => request.tools.length === 0)).toBe(true);
  });

  it('a resume with the same typed command matches the stored, expanded input', async () => {
    const store = new MemoryRunStore();
    const agent = new Agent({
      name: 'helper',
      mode: 'react',
      model: new ScriptedModel({ respond: () => ({ text: 'ok' }) }),
      prompt: 'You help.',
      context: { commands },
      store,
    });
    const { result } = await finishes(agent, { sessionId: 'c5', input: '/standup' });
    const again = await agent.run({ sessionId: 'c5', runId: result.runId, input: '/standup' }).result();
    expect(again).toEqual(result);
  });

  it('a run a host created with the typed command is expanded when an executor starts it', async () => {
    const store = new MemoryRunStore();
    const model = new ScriptedModel({ respond: () => ({ text: 'ok' }) });
    const agent = new Agent({ name: 'helper', mode: 'react', model, prompt: 'You help.', context: { commands }, store });
    const client = new RunClient({ store });
    const { runId } = await client.createRun({ kind: 'agent', name: 'helper', sessionId: 'c6', input: '/summarize the notes' });
    expect((await agent.run({ sessionId: 'c6', runId }).result()).status).toBe('succeeded');
    expect(lastText(model.requests[0]?.messages ?? [])).toBe('Summarise the notes in three bullet points.');
    // The caller may pass the typed input again: it matches the recorded one.
    const { runId: second } = await client.createRun({ kind: 'agent', name: 'helper', sessionId: 'c7', input: '/standup' });
    expect((await agent.run({ sessionId: 'c7', runId: second, input: '/standup' }).result()).status).toBe('succeeded');
  });
});

describe('the context features in a definition (N-15)', () => {
  const definition = {
    formatVersion: 1 as const,
    kind: 'agent' as const,
    name: 'defined',
    mode: 'react' as const,
    model: 'main',
    prompt: 'You help.',
    context: {
      userInstructions: 'Be brief.',
      entries: [{ id: 'tone', constant: true, content: 'Friendly tone.' }],
      messageShaping: 'merge' as const,
      commands: [{ name: 'hello', prompt: 'Say hello to {{args}}.' }],
    },
    memory: { enabled: true, budgetCharacters: 500 },
  };

  it('builds an agent with entries, instructions, shaping, commands and memory tools', async () => {
    const model = new ScriptedModel({ respond: () => ({ text: 'ok' }) });
    const agent = createAgent(definition, { models: { main: model }, factStore: new InProcessFactStore() });
    await finishes(agent, { sessionId: 'd1', input: '/hello Ana', metadata: { userId: 'u1' } });
    const [request] = model.requests;
    expect(request?.messages).toEqual([
      {
        role: 'user',
        content:
          'Say hello to Ana.\n\n<context-entries>\n[tone]\nFriendly tone.\n</context-entries>\n\n<user-instructions>\nBe brief.\n</user-instructions>',
      },
    ]);
    expect(request?.tools.map((item) => item.name).sort()).toEqual(['forget', 'recall', 'remember']);
  });

  it('refuses memory without a fact store in the registry', () => {
    const model = new ScriptedModel({ respond: () => ({ text: 'ok' }) });
    expect(() => createAgent(definition, { models: { main: model } })).toThrow(InvalidDefinitionError);
  });
});
