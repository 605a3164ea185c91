/**
 * Hook decisions and approvals across real processes (K-9, R-8, K-5): saved decisions are reused,
 * never evaluated again; a pending approval survives a crash and is decided from outside.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { RunClient } from '../../src/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { runScript } from '../helpers/child-process.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'governance-child.ts');
const directory = mkdtempSync(join(tmpdir(), 'agentloom-governance-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);

function files(name: string) {
  return {
    GOVERNANCE_DATABASE: join(directory, `${name}.db`),
    GOVERNANCE_EFFECTS: join(directory, `${name}.effects`),
    GOVERNANCE_RUN_ID: `${name}-run`,
  };
}

describe('governance across a crash', () => {
  it('resumes after the tool ran with reviewed.sql, without running the hook or the tool again (K-9, R-8)', async () => {
    const target = { ...files('review'), GOVERNANCE_SCENARIO: 'review' };
    const crashed = await runScript(script, { ...target, GOVERNANCE_FREEZE: 'after-tool' });
    expect(crashed.killed, `the child was not killed after the tool: ${crashed.stderr}${JSON.stringify(crashed.values)}`).toBe(
      true,
    );
    expect(lines(target.GOVERNANCE_EFFECTS)).toEqual(['hook review', 'tool reviewed.sql']);
    const resumed = await runScript(script, target);
    expect(resumed.stderr).toBe('');
    expect(resumed.values.RESULT).toMatchObject({ status: 'succeeded', output: 'tool said: ran reviewed.sql' });
    expect(lines(target.GOVERNANCE_EFFECTS)).toEqual(['hook review', 'tool reviewed.sql']);
    const requests = resumed.values.REQUESTS as Message[][];
    const assistant = requests[0]?.find((message) => message.role === 'assistant');
    expect(assistant?.role === 'assistant' && assistant.toolCalls?.[0]?.arguments).toEqual({ file: 'reviewed.sql' });
    const store = new SqliteRunStore({ path: target.GOVERNANCE_DATABASE });
    const journal = await store.readJournal(target.GOVERNANCE_RUN_ID);
    await store.close();
    expect(journal.filter((entry) => entry.type === 'tool-gated')).toHaveLength(1);
    expect(journal.find((entry) => entry.type === 'tool-gated')?.data).toMatchObject({
      modifiedBy: ['review'],
      effectiveArguments: { file: 'reviewed.sql' },
    });
  }, 60_000);

  for (const approved of [true, false]) {
    it(`keeps a pending approval across a crash and takes its decision from outside (${approved ? 'approve' : 'deny'}) (K-5)`, async () => {
      const target = { ...files(`approval-${approved}`), GOVERNANCE_SCENARIO: 'approval' };
      const crashed = await runScript(script, { ...target, GOVERNANCE_FREEZE: 'after-request' });
      expect(
        crashed.killed,
        `the child was not killed after the request: ${crashed.stderr}${JSON.stringify(crashed.values)}`,
      ).toBe(true);
      // Someone decides on another machine while nobody owns the run.
      const store = new SqliteRunStore({ path: target.GOVERNANCE_DATABASE });
      await new RunClient({ store }).decideApproval(target.GOVERNANCE_RUN_ID, {
        approvalId: 'entry/1/0',
        approved,
        decidedBy: 'alice',
        reason: 'checked',
      });
      await store.close();
      const resumed = await runScript(script, target);
      expect(resumed.stderr).toBe('');
      if (approved) {
        expect(resumed.values.RESULT).toMatchObject({ status: 'succeeded', output: 'tool said: ran draft.sql' });
        expect(lines(target.GOVERNANCE_EFFECTS)).toEqual(['tool draft.sql']);
      } else {
        expect(resumed.values.RESULT).toMatchObject({ output: 'tool said: Error (denied): not approved (alice): checked' });
        expect(lines(target.GOVERNANCE_EFFECTS)).toEqual([]);
      }
      const check = new SqliteRunStore({ path: target.GOVERNANCE_DATABASE });
      const journal = await check.readJournal(target.GOVERNANCE_RUN_ID);
      await check.close();
      expect(journal.filter((entry) => entry.type === 'approval-requested')).toHaveLength(1);
      expect(journal.filter((entry) => entry.type === 'approval-decided')).toHaveLength(1);
    }, 60_000);
  }
});
