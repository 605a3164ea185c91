/**
 * Regenerating an answer (N-15, issue 37 item 5): a new run in the same variant group, the old run
 * kept in the session, later runs seeing only the newest variant, and the replaced variant's file
 * changes rolled back first (N-6). On SQLite files, through the public API.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, createWorkspace, InvalidRunRequestError, RunClient } from '../../src/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-variants-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const texts = (request: ScriptedModel['requests'][number] | undefined) =>
  (request?.messages ?? []).map((message) => message.content);

describe('regenerate an answer as a new variant (N-15)', () => {
  it('keeps the old run, puts the new one in its group, and later runs see only the newest variant', async () => {
    const store = new SqliteRunStore({ path: path.join(directory, 'variants.db') });
    let answer = 0;
    const model = new ScriptedModel({ respond: () => ({ text: `answer ${++answer}` }) });
    const agent = new Agent({ name: 'helper', mode: 'react', model, prompt: 'You help.', store });
    const first = await agent.run({ sessionId: 'chat', input: 'Name a colour.' }).result();
    const second = await agent.run({ sessionId: 'chat', regenerate: { runId: first.runId } }).result();
    expect(second.output).toBe('answer 2');
    // The regenerated run asks the same question without the answer it replaces.
    expect(texts(model.requests[1])).toEqual(['Name a colour.']);
    const third = await agent.run({ sessionId: 'chat', regenerate: { runId: second.runId } }).result();
    expect(third.output).toBe('answer 3');
    expect(texts(model.requests[2])).toEqual(['Name a colour.']);
    // Only the newest run may be regenerated, once finished.
    expect(() => agent.run({ sessionId: 'chat', regenerate: { runId: '' } })).toThrow();
    await expect(agent.run({ sessionId: 'chat', regenerate: { runId: first.runId } }).result()).rejects.toSatisfy(
      InvalidRunRequestError.isInstance,
    );
    const next = await agent.run({ sessionId: 'chat', input: 'And another?' }).result();
    expect(next.output).toBe('answer 4');
    const seen = texts(model.requests[3]);
    expect(seen).toContain('answer 3');
    expect(seen).not.toContain('answer 1');
    expect(seen).not.toContain('answer 2');
    // Nothing was deleted: the session keeps every variant, marked with its group.
    const session = await new RunClient({ store }).readSessionHistory('chat');
    expect(session.map((run) => [run.result?.output, run.variant])).toEqual([
      ['answer 1', undefined],
      ['answer 2', { group: first.runId, replaces: first.runId }],
      ['answer 3', { group: first.runId, replaces: second.runId }],
      ['answer 4', undefined],
    ]);
    await store.close();
  });

  it('a resumed later run still leaves the replaced variants out of its history', async () => {
    const store = new SqliteRunStore({ path: path.join(directory, 'resume.db') });
    let answer = 0;
    const model = new ScriptedModel({ respond: () => ({ text: `answer ${++answer}` }) });
    const agent = new Agent({ name: 'helper', mode: 'react', model, prompt: 'You help.', store });
    const first = await agent.run({ sessionId: 'chat', input: 'Q1' }).result();
    await agent.run({ sessionId: 'chat', regenerate: { runId: first.runId } }).result();
    // A run created by a host and executed later selects its history when it starts.
    const client = new RunClient({ store });
    const { runId } = await client.createRun({ kind: 'agent', name: 'helper', sessionId: 'chat', input: 'Q2' });
    await agent.run({ sessionId: 'chat', runId }).result();
    expect(texts(model.requests.at(-1))).toEqual(['Q1', 'answer 2', 'Q2']);
    await store.close();
  });

  it('rolls back the file changes of the replaced variant before the new one starts (N-6)', async () => {
    const store = new SqliteRunStore({ path: path.join(directory, 'files.db') });
    const workspace = createWorkspace({ root: path.join(directory, 'work'), persistent: true });
    const report = path.join(workspace.workDirectory({ sessionId: 'files', runId: 'any' }), 'report.md');
    let regenerated = false;
    const seenAtStart: boolean[] = [];
    const model = new ScriptedModel({
      respond: (request) => {
        const wrote = request.messages.some((message) => message.role === 'tool');
        if (wrote) return { text: 'written' };
        seenAtStart.push(existsSync(report));
        const content = regenerated ? 'second draft' : 'first draft';
        return { toolCalls: [{ name: 'write_file', arguments: { path: '/work/report.md', content } }] };
      },
    });
    const agent = new Agent({ name: 'writer', mode: 'react', model, prompt: 'You write.', workspace, store });
    const first = await agent.run({ sessionId: 'files', input: 'Write the report.' }).result();
    expect(readFileSync(report, 'utf8')).toBe('first draft');
    regenerated = true;
    const second = await agent.run({ sessionId: 'files', regenerate: { runId: first.runId } }).result();
    expect(second.status).toBe('succeeded');
    // The first draft was gone (the file did not exist before it) when the new variant started.
    expect(seenAtStart).toEqual([false, false]);
    expect(readFileSync(report, 'utf8')).toBe('second draft');
    const events = await new RunClient({ store }).describeRun(second.runId);
    expect(events.runId).toBe(second.runId);
    const journal = await store.readJournal(second.runId);
    expect(journal.find((entry) => entry.type === 'variant-files-restored')?.data).toEqual({
      replaces: first.runId,
      restored: ['/work/report.md'],
      failed: [],
    });
    await store.close();
  });
});
