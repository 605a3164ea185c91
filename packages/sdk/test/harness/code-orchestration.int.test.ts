/**
 * Code-orchestrated tool calls (N-15, issue 37 item 1): the model's script runs in the bubblewrap
 * sandbox, each of its tool calls is an operation of its own that goes through the same gate,
 * journal and retries as a direct call, and only the script's result enters the context. The crash
 * test (a real child SIGKILLed inside a script after its second call) is in code-orchestration-crash.int.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentRunEvent,
  BubblewrapSandbox,
  createAgent,
  type HookMap,
  MemoryRunStore,
  ProcessSandbox,
  SCRIPT_TOOL_NAME,
  tool,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { describeWithBubblewrap } from '../capabilities/bubblewrap-availability.js';

/** A model that sends `script` once and then answers with the text of the result it got back. */
function scripting(script: string) {
  return new ScriptedModel({
    respond: (request) => {
      const result = request.messages.find((message) => message.role === 'tool');
      return result ? { text: `saw: ${result.content}` } : { toolCalls: [{ name: SCRIPT_TOOL_NAME, arguments: { script } }] };
    },
  });
}

function counter() {
  const calls: number[] = [];
  const lookup = tool({
    name: 'lookup',
    description: 'Returns the square of n.',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => {
      calls.push(n);
      return n * n;
    },
  });
  return { calls, lookup };
}

describeWithBubblewrap('code-orchestrated tool calls (N-15)', () => {
  const sandbox = new BubblewrapSandbox();
  const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-scripts-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('runs a loop of tool calls in the sandbox; only the returned value enters the context', { timeout: 30_000 }, async () => {
    const { calls, lookup } = counter();
    const model = scripting(
      'let sum = 0;\nfor (const n of [1, 2, 3]) sum += Number(await tools.lookup({ n }));\nreturn { sum };',
    );
    const store = new MemoryRunStore();
    const agent = new Agent({
      name: 'orchestrator',
      mode: 'react',
      model,
      prompt: 'Use scripts.',
      tools: [lookup],
      store,
      codeOrchestration: { sandbox },
    });
    const run = agent.run({ sessionId: 's', input: 'sum the squares' });
    const events: AgentRunEvent[] = [];
    for await (const event of run.events()) events.push(event);
    expect(await run.result()).toMatchObject({ status: 'succeeded', output: 'saw: {"sum":14}' });
    expect(calls).toEqual([1, 2, 3]);
    // The model saw one tool result, the script's, and none of the three calls it made.
    const second = model.requests[1]?.messages ?? [];
    expect(second.filter((message) => message.role === 'tool')).toEqual([
      expect.objectContaining({ toolName: SCRIPT_TOOL_NAME, content: '{"sum":14}' }),
    ]);
    expect(model.requests[0]?.tools?.map((definition) => definition.name)).toEqual(['lookup', SCRIPT_TOOL_NAME]);
    // Each call is journaled as an operation of its own, with an id derived from the script's.
    const journal = await store.readJournal(run.runId);
    const started = journal.filter((entry) => entry.type === 'script-call-started').map((entry) => entry.data);
    expect(started).toEqual([0, 1, 2].map((index) => expect.objectContaining({ operationId: `entry/1/0#${index}`, index })));
    const finished = events.flatMap((event) => (event.type === 'tool-call-finish' ? [`${event.toolName}:${event.content}`] : []));
    expect(finished).toEqual(['lookup:1', 'lookup:4', 'lookup:9', `${SCRIPT_TOOL_NAME}:{"sum":14}`]);
  });

  it('puts every call of a script through the hooks and the permission policy, like a direct call', {
    timeout: 30_000,
  }, async () => {
    const { calls, lookup } = counter();
    const seen: unknown[] = [];
    const hooks: HookMap = {
      PreToolUse: [
        {
          name: 'double',
          handle: (subject) => {
            seen.push(subject.toolName);
            if (subject.toolName !== 'lookup') return undefined;
            return { modify: { arguments: { n: (subject.arguments as { n: number }).n * 2 } } };
          },
        },
      ],
    };
    const script = [
      'const out = [await tools.lookup({ n: 1 })];',
      "try { await tools.lookup({ n: 13 }); } catch (error) { out.push(error.kind + ': ' + error.message); }",
      "try { await callTool('run_script', { script: 'return 1' }); } catch (error) { out.push(error.kind); }",
      'return out;',
    ].join('\n');
    const agent = new Agent({
      name: 'governed',
      mode: 'react',
      model: scripting(script),
      prompt: 'p',
      tools: [lookup],
      store: new MemoryRunStore(),
      hooks,
      permissions: { rules: [{ tool: 'lookup', arguments: { n: '26' }, decision: 'deny', reason: 'not 26' }] },
      codeOrchestration: { sandbox },
    });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(calls).toEqual([2]);
    expect(seen).toEqual([SCRIPT_TOOL_NAME, 'lookup', 'lookup']);
    expect(JSON.parse(String(result.output).slice('saw: '.length))).toEqual([
      '4',
      'denied: denied by permission-policy: not 26',
      'unknown-tool',
    ]);
  });

  it('asks the approval port about a call of a script whose permission is ask, and runs only the approved one', {
    timeout: 30_000,
  }, async () => {
    const { calls, lookup } = counter();
    const asked: Array<{ toolName: string; arguments: unknown }> = [];
    const agent = new Agent({
      name: 'asking',
      mode: 'react',
      model: scripting(
        'const out = [];\nfor (const n of [1, 2]) { try { out.push(await tools.lookup({ n })); } catch (error) { out.push(error.kind); } }\nreturn out;',
      ),
      prompt: 'p',
      tools: [lookup],
      store: new MemoryRunStore(),
      permissions: { rules: [{ tool: 'lookup', decision: 'ask' }] },
      approvals: {
        request: (approval) => {
          asked.push({ toolName: approval.toolName, arguments: approval.arguments });
          return { approved: (approval.arguments as { n: number }).n === 1 };
        },
      },
      codeOrchestration: { sandbox },
    });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result).toMatchObject({ output: 'saw: ["1","denied"]' });
    expect(calls).toEqual([1]);
    expect(asked).toEqual([
      { toolName: 'lookup', arguments: { n: 1 } },
      { toolName: 'lookup', arguments: { n: 2 } },
    ]);
  });

  it('retries a failed call of a script by the run policy, with the same operation id', { timeout: 30_000 }, async () => {
    const attempts: Array<{ operationId: string; attempt: number }> = [];
    const flaky = tool({
      name: 'flaky',
      description: 'Fails once with a connection error.',
      parameters: z.object({}),
      execute: (_args, context) => {
        attempts.push({ operationId: context.operationId, attempt: context.attempt });
        if (context.attempt === 1) throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
        return 'ok';
      },
    });
    const agent = new Agent({
      name: 'retrying',
      mode: 'react',
      model: scripting('return await tools.flaky({});'),
      prompt: 'p',
      tools: [flaky],
      store: new MemoryRunStore(),
      codeOrchestration: { sandbox },
      execution: { retry: { enabled: true, attempts: 2, waitMs: 10 } },
    });
    expect(await agent.run({ sessionId: 's', input: 'go' }).result()).toMatchObject({ output: 'saw: "ok"' });
    expect(attempts).toEqual([
      { operationId: 'entry/1/0#0', attempt: 1 },
      { operationId: 'entry/1/0#0', attempt: 2 },
    ]);
  });

  it('gives a failing script back to the model as a failed call, not retried', { timeout: 30_000 }, async () => {
    for (const [script, expected] of [
      ['throw new Error("no luck")', 'Error (tool-error): the script failed: Error: no luck'],
      ['return (', 'the script failed: SyntaxError'],
      ['while (true) {}', 'the attempt ran past its 2000 ms timeout'],
    ] as const) {
      const model = scripting(script);
      const agent = new Agent({
        name: 'failing',
        mode: 'react',
        model,
        prompt: 'p',
        store: new MemoryRunStore(),
        codeOrchestration: { sandbox },
        execution: { toolTimeoutMs: 2_000, retry: { enabled: false } },
      });
      const result = await agent.run({ sessionId: 's', input: 'go' }).result();
      expect(result.status).toBe('succeeded');
      expect(String(result.output)).toContain(expected);
    }
  });

  it('keeps the script inside the sandbox even when it escapes the vm context', { timeout: 30_000 }, async () => {
    const secret = path.join(directory, 'secret.txt');
    writeFileSync(secret, 'host secret');
    const script = [
      "const hostProcess = this.constructor.constructor('return process')();",
      "const fs = hostProcess.getBuiltinModule ? hostProcess.getBuiltinModule('fs') : hostProcess.binding('fs');",
      `try { return fs.readFileSync(${JSON.stringify(secret)}, 'utf8'); } catch (error) { return 'refused: ' + error.code; }`,
    ].join('\n');
    const agent = new Agent({
      name: 'escaping',
      mode: 'react',
      model: scripting(script),
      prompt: 'p',
      store: new MemoryRunStore(),
      codeOrchestration: { sandbox },
      execution: { retry: { enabled: false } },
    });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(String(result.output)).not.toContain('host secret');
    expect(String(result.output)).toMatch(/^saw: "refused: (ERR_ACCESS_DENIED|ENOENT)"$/);
  });

  it('is off by default, needs a sandbox, and refuses one that does not isolate unless told', () => {
    const model = scripting('return 1');
    const base = { name: 'a', mode: 'react' as const, model, prompt: 'p' };
    const plain = new Agent(base);
    expect(plain).toBeDefined();
    expect(() => new Agent({ ...base, codeOrchestration: true })).toThrow(/codeOrchestration.*needs a sandbox/s);
    expect(() => new Agent({ ...base, codeOrchestration: { sandbox: new ProcessSandbox() } })).toThrow(/does not isolate/);
    expect(
      () => new Agent({ ...base, codeOrchestration: { sandbox: new ProcessSandbox(), allowUnisolated: true } }),
    ).not.toThrow();
  });

  it('runs with a non-isolating sandbox only when told to (trusted models, platforms without bubblewrap)', async () => {
    const { calls, lookup } = counter();
    const agent = new Agent({
      name: 'trusted',
      mode: 'react',
      model: scripting('return Number(await tools.lookup({ n: 7 })) + 1;'),
      prompt: 'p',
      tools: [lookup],
      store: new MemoryRunStore(),
      codeOrchestration: { sandbox: new ProcessSandbox(), allowUnisolated: true },
    });
    expect(await agent.run({ sessionId: 's', input: 'go' }).result()).toMatchObject({ output: 'saw: 50' });
    expect(calls).toEqual([7]);
  });

  it('is switched on in a definition, its sandbox taken from the registry (sample script-agent.json)', {
    timeout: 30_000,
  }, async () => {
    const sample = JSON.parse(readFileSync(new URL('../../schemas/samples/script-agent.json', import.meta.url), 'utf8'));
    const { calls, lookup } = counter();
    const lookupStock = tool({ ...lookup, name: 'lookup_stock' });
    const model = scripting('return [await tools.lookup_stock({ n: 4 }), await tools.lookup_stock({ n: 5 })];');
    const registry = { models: { fast: model }, tools: [lookupStock], store: new MemoryRunStore() };
    expect(() => createAgent(sample, registry)).toThrow(/codeOrchestration/);
    const agent = createAgent(sample, { ...registry, sandbox });
    const result = await agent.run({ sessionId: 's', input: 'audit 4 and 5' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'saw: ["16","25"]' });
    expect(calls).toEqual([4, 5]);
    expect(() => createAgent({ ...sample, codeOrchestration: { maxToolCalls: 0 } }, { ...registry, sandbox })).toThrow(
      /codeOrchestration/,
    );
    const plain = new ScriptedModel({ replies: [{ text: 'no scripts here' }] });
    const { codeOrchestration: _off, ...withoutSwitch } = sample;
    await createAgent(withoutSwitch, { ...registry, models: { fast: plain } })
      .run({ sessionId: 's', input: 'x' })
      .result();
    expect(plain.requests[0]?.tools?.map((definition) => definition.name)).toEqual(['lookup_stock']);
  });
});
