import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { RunClient } from '../../client/run-client.js';
import type { ToolResultMessage } from '../../core/messages.js';
import type { Hook, HookMap } from '../../hooks/hook-types.js';
import type { ModelRequest } from '../../model/language-model.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';
import type { ReactAgentConfig } from './agent-config.js';

const results = (request: ModelRequest) =>
  request.messages.filter((message): message is ToolResultMessage => message.role === 'tool');

/** A run that calls `run_sql` on `draft.sql` once, then answers with what the tool said. */
function sqlAgent(overrides: Partial<ReactAgentConfig> = {}) {
  const ran: unknown[] = [];
  const runSql = tool({
    name: 'run_sql',
    description: 'Runs a SQL file.',
    parameters: z.object({ file: z.string() }),
    execute: ({ file }) => {
      ran.push(file);
      return `ran ${file}`;
    },
  });
  const model = new ScriptedModel({
    respond: (request) =>
      results(request).length > 0
        ? { text: `tool said: ${results(request)[0]?.content}` }
        : { toolCalls: [{ name: 'run_sql', arguments: { file: 'draft.sql' } }] },
  });
  const store = new MemoryRunStore();
  const agent = new Agent({ name: 'sql', mode: 'react', model, prompt: 'p', tools: [runSql], store, ...overrides });
  return { agent, model, store, ran };
}

const hook = (
  name: string,
  handle: Hook<'PreToolUse'>['handle'],
  extra: Partial<Hook<'PreToolUse'>> = {},
): Hook<'PreToolUse'> => ({ name, handle, ...extra });

describe('hooks (K-4…K-10)', () => {
  it('makes a modification the effective context: the tool, the model and the journal see reviewed.sql (K-9)', async () => {
    const hooks: HookMap = {
      PreToolUse: [
        hook('review', (subject) => ({
          decision: 'allow',
          modify: { arguments: { file: String((subject.arguments as { file: string }).file).replace('draft', 'reviewed') } },
        })),
      ],
    };
    const { agent, model, store, ran } = sqlAgent({ hooks });
    const run = agent.run({ sessionId: 's', input: 'run it' });
    expect((await run.result()).output).toBe('tool said: ran reviewed.sql');
    expect(ran).toEqual(['reviewed.sql']);
    const assistant = model.requests[1]?.messages.find((message) => message.role === 'assistant');
    expect(assistant?.role === 'assistant' && assistant.toolCalls?.[0]?.arguments).toEqual({ file: 'reviewed.sql' });
    const journal = await store.readJournal(run.runId);
    const raw = journal.find((entry) => entry.type === 'model-responded')?.data as {
      message: { toolCalls: Array<{ arguments: unknown }> };
    };
    expect(raw.message.toolCalls[0]?.arguments).toEqual({ file: 'draft.sql' });
    expect(journal.find((entry) => entry.type === 'tool-gated')?.data).toMatchObject({
      decision: 'allow',
      effectiveArguments: { file: 'reviewed.sql' },
      modifiedBy: ['review'],
    });
  });

  it('never lets a later allow overturn a deny, and returns a correlated denial without running the tool (K-5, K-6)', async () => {
    const hooks: HookMap = {
      PreToolUse: [
        hook('block-sql', () => ({ decision: 'deny', reason: 'no SQL today' })),
        hook('permissive', () => ({ decision: 'allow' })),
      ],
    };
    const { agent, model, ran } = sqlAgent({ hooks });
    const result = await agent.run({ sessionId: 's', input: 'run it' }).result();
    expect(ran).toEqual([]);
    expect(result.output).toBe('tool said: Error (denied): denied by block-sql: no SQL today');
    expect(results(model.requests[1] as ModelRequest)[0]?.toolCallId).toBe('call_1_0');
  });

  it('skips a throwing hook, a hook that times out and one that tries to change the call id, keeping the last valid version (K-7, K-8)', async () => {
    const seen: unknown[] = [];
    const hooks: HookMap = {
      PreToolUse: [
        hook('rename', () => ({ modify: { arguments: { file: 'first.sql' } } })),
        hook('throws', () => {
          throw new Error('hook crashed');
        }),
        hook('slow', () => new Promise(() => {}), { timeoutMs: 20 }),
        hook('sneaky', () => ({ modify: { arguments: { file: 'evil.sql' }, toolName: 'drop_all', operationId: 'x' } })),
        hook('garbage', () => 42 as never),
        hook('witness', (subject) => {
          seen.push(subject.arguments);
          return undefined;
        }),
      ],
    };
    const { agent, store, ran } = sqlAgent({ hooks });
    const run = agent.run({ sessionId: 's', input: 'run it' });
    await run.result();
    expect(ran).toEqual(['first.sql']);
    expect(seen).toEqual([{ file: 'first.sql' }]);
    const gate = (await store.readJournal(run.runId)).find((entry) => entry.type === 'tool-gated')?.data as {
      outcomes: Array<{ hook: string; outcome: string }>;
    };
    expect(gate.outcomes.map((outcome) => [outcome.hook, outcome.outcome])).toEqual([
      ['rename', 'modify'],
      ['throws', 'error'],
      ['slow', 'timeout'],
      ['sneaky', 'invalid'],
      ['garbage', 'invalid'],
      ['witness', 'none'],
    ]);
  });

  it('still denies when a valid deny carries an invalid modification; a fail-closed hook denies on failure (K-7)', async () => {
    const first = sqlAgent({
      hooks: { PreToolUse: [hook('deny-and-tamper', () => ({ decision: 'deny', reason: 'no', modify: { callId: 'x' } }))] },
    });
    expect((await first.agent.run({ sessionId: 's', input: 'go' }).result()).output).toContain('Error (denied)');
    expect(first.ran).toEqual([]);
    const second = sqlAgent({
      hooks: {
        PreToolUse: [
          hook(
            'strict',
            () => {
              throw new Error('cannot check');
            },
            { failClosed: true },
          ),
        ],
      },
    });
    expect((await second.agent.run({ sessionId: 's', input: 'go' }).result()).output).toContain('Error (denied)');
    expect(second.ran).toEqual([]);
  });

  it('lets a PostToolUse hook rewrite the delivered result, keeping the raw one, or withhold it (K-6, K-9)', async () => {
    const rewrite = sqlAgent({
      hooks: { PostToolUse: [{ name: 'redact', handle: (subject) => ({ modify: { result: subject.result.toUpperCase() } }) }] },
    });
    const run = rewrite.agent.run({ sessionId: 's', input: 'go' });
    expect((await run.result()).output).toBe('tool said: RAN DRAFT.SQL');
    const finished = (await rewrite.store.readJournal(run.runId)).find((entry) => entry.type === 'operation-finished')?.data;
    expect(finished).toMatchObject({ content: 'RAN DRAFT.SQL', rawContent: 'ran draft.sql', modifiedBy: ['redact'] });
    const withhold = sqlAgent({
      hooks: { PostToolUse: [{ name: 'secret', handle: () => ({ decision: 'deny', reason: 'secret output' }) }] },
    });
    const output = (await withhold.agent.run({ sessionId: 's', input: 'go' }).result()).output;
    expect(withhold.ran).toEqual(['draft.sql']);
    expect(output).toBe('tool said: Error (denied): the result was withheld by secret: secret output');
  });

  it('applies hooks and permissions to an executor tool call, the same as to the planner (K-4, N-1)', async () => {
    const ran: string[] = [];
    const write = tool({
      name: 'write_file',
      description: 'Writes.',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        ran.push(path);
        return 'written';
      },
    });
    const model = new ScriptedModel({
      respond: (request) => {
        if (request.system === 'planner') {
          return results(request).length > 0
            ? { text: results(request)[0]?.content ?? '' }
            : { toolCalls: [{ name: 'worker', arguments: { task: 'write' } }] };
        }
        return results(request).length > 0
          ? {
              text: results(request)
                .map((message) => message.content)
                .join(' / '),
            }
          : {
              toolCalls: [
                { name: 'write_file', arguments: { path: '/etc/passwd' } },
                { name: 'write_file', arguments: { path: 'notes/a.md' } },
              ],
            };
      },
    });
    const seenRoles: string[] = [];
    const agent = new Agent({
      name: 'team',
      mode: 'plan-executor',
      model,
      planner: { prompt: 'planner' },
      executors: [{ name: 'worker', description: 'Writes files.', prompt: 'worker', tools: [write] }],
      permissions: {
        rules: [{ tool: 'write_file', arguments: { path: '/etc/*' }, decision: 'deny', reason: 'system files are off limits' }],
      },
      hooks: {
        PreToolUse: [
          { name: 'audit', observe: false, handle: (_subject, context) => void seenRoles.push(context.identity.role) },
        ],
      },
    });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(ran).toEqual(['notes/a.md']);
    expect(result.output).toBe('Error (denied): denied by permission-policy: system files are off limits / written');
    expect(seenRoles).toEqual(['planner', 'worker', 'worker']);
  });

  it('checks the input on the entry role and the final answer with guardrails (N-2)', async () => {
    const blockedInput = sqlAgent({
      guardrails: {
        input: [{ name: 'no-secrets', check: (text) => ({ passed: !text.includes('password'), reason: 'contains a password' }) }],
      },
    });
    const refused = await blockedInput.agent.run({ sessionId: 's', input: 'my password is hunter2' }).result();
    expect(refused).toMatchObject({
      status: 'failed',
      reason: 'blocked',
      failure: { kind: 'denied', code: 'guardrail:no-secrets' },
    });
    expect(blockedInput.model.requests).toHaveLength(0);
    const blockedOutput = sqlAgent({
      guardrails: {
        output: [{ name: 'no-sql-talk', check: (text) => ({ passed: !text.includes('sql'), reason: 'mentions SQL' }) }],
      },
    });
    const result = await blockedOutput.agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'blocked' });
    expect(result.output).toBeUndefined();
  });

  it('lets a Stop hook send the final answer back for another loop (K-4)', async () => {
    let asked = 0;
    const { agent } = sqlAgent({
      hooks: {
        Stop: [
          {
            name: 'double-check',
            handle: () => {
              asked += 1;
              return asked === 1 ? { decision: 'block', reason: 'Check your answer once more.' } : undefined;
            },
          },
        ],
      },
    });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result).toMatchObject({ status: 'succeeded', loops: 3 });
    expect(asked).toBe(2);
  });

  it('routes ask to the approval port and denies when it says no; never asks again on resume (K-5, R-8)', async () => {
    const requests: string[] = [];
    const approving = sqlAgent({
      permissions: { rules: [{ tool: 'run_sql', decision: 'ask', reason: 'SQL needs a human' }] },
      approvals: {
        request: (approval) => {
          requests.push(approval.approvalId);
          return { approved: true };
        },
      },
    });
    const run = approving.agent.run({ sessionId: 's', input: 'go' });
    expect((await run.result()).output).toBe('tool said: ran draft.sql');
    expect(requests).toEqual(['entry/1/0']);
    expect(await approving.agent.run({ sessionId: 's', runId: run.runId }).result()).toMatchObject({ status: 'succeeded' });
    expect(requests).toHaveLength(1);
    const refusing = sqlAgent({
      permissions: { rules: [{ tool: 'run_sql', decision: 'ask' }] },
      approvals: { request: () => ({ approved: false, reason: 'not now' }) },
    });
    expect((await refusing.agent.run({ sessionId: 's', input: 'go' }).result()).output).toBe(
      'tool said: Error (denied): not approved (approval-port): not now',
    );
    expect(refusing.ran).toEqual([]);
  });

  it('takes an approval decided from outside through RunClient.decideApproval, and none after the run ended', async () => {
    const { agent, ran } = sqlAgent({ permissions: { default: 'ask' } });
    const client = new RunClient({ store: agent.store });
    const run = agent.run({ sessionId: 's', input: 'go' });
    for await (const event of run.events()) {
      if (event.type === 'approval-request') {
        await client.decideApproval(run.runId, { approvalId: event.approvalId, approved: true, decidedBy: 'alice' });
      }
    }
    expect((await run.result()).output).toBe('tool said: ran draft.sql');
    expect(ran).toEqual(['draft.sql']);
    await expect(client.decideApproval(run.runId, { approvalId: 'entry/1/0', approved: false })).rejects.toMatchObject({
      code: 'run-not-active',
    });
  });

  it('denies an approval nobody decides before the approval timeout (K-6)', async () => {
    const { agent, ran } = sqlAgent({ permissions: { default: 'ask' }, approvalTimeoutMs: 50 });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result.output).toBe('tool said: Error (denied): not approved (timeout): no decision before the approval timeout');
    expect(ran).toEqual([]);
  });

  it('lets a UserPromptSubmit hook rewrite a supplement and refuse another (K-9)', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const wait = tool({
      name: 'wait',
      description: 'Waits.',
      parameters: z.object({}),
      execute: () => released.then(() => 'ok'),
    });
    const model = new ScriptedModel({
      respond: (request) =>
        results(request).length > 0
          ? {
              text: request.messages
                .filter((message) => message.role === 'user')
                .map((message) => message.content)
                .join(' | '),
            }
          : { toolCalls: [{ name: 'wait' }] },
    });
    const agent = new Agent({
      name: 'p',
      mode: 'react',
      model,
      prompt: 'p',
      tools: [wait],
      hooks: {
        UserPromptSubmit: [
          {
            name: 'polite',
            handle: (subject) => {
              if (subject.text.includes('rude')) return { decision: 'deny', reason: 'rude' };
              return { modify: { text: `${subject.text} please` } };
            },
          },
        ],
      },
    });
    const run = agent.run({ sessionId: 's', input: 'question' });
    for await (const event of run.events()) {
      if (event.type === 'tool-call-start') {
        await run.supplement('more');
        await run.supplement('a rude remark');
        release();
      }
    }
    expect((await run.result()).output).toBe('question please | more please');
  });
});
