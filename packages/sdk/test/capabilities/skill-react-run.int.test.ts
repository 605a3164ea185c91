/**
 * A ReAct run discovers a skill from its context section, reads it through `read_skill`
 * (progressive disclosure, reading runs nothing) and runs the skill's script with `run_command`
 * in the bubblewrap sandbox, which sees only the run's view (K-1, K-2, F-2).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { loadSkills } from '../../src/capabilities/skills/index.js';
import { Agent } from '../../src/engine/agent/agent.js';
import type { ModelRequest } from '../../src/model/language-model.js';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap/index.js';
import { createWorkspace } from '../../src/sandbox/index.js';
import { MemoryRunStore } from '../../src/store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../../src/testing/index.js';
import { sandboxReachableDirectory } from '../helpers/sandbox-directory.js';
import { describeWithBubblewrap } from './bubblewrap-availability.js';

const skillsRoot = fileURLToPath(new URL('../../src/capabilities/skills/__fixtures__/valid/', import.meta.url));
const directory = sandboxReachableDirectory('agentloom-skill-run-');
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The scripted model: finds the report skill in its context, reads it, follows it. */
function reportModel(observe: (step: string) => void): ScriptedModel {
  return new ScriptedModel({
    respond: (request: ModelRequest): ScriptedReply => {
      const results = request.messages.filter((message) => message.role === 'tool').map((message) => message.content);
      const skill = /^- ([a-z0-9-]+): [^\n]*report[^\n]*\(entry: (\S+)\)$/m.exec(request.system);
      if (!skill) return { text: 'I have no skill for reports.' };
      switch (results.length) {
        case 0:
          return {
            toolCalls: [
              { name: 'write_file', arguments: { path: 'notes.txt', content: 'alpha\nbeta\n' } },
              { name: 'read_skill', arguments: { path: skill[2] } },
            ],
          };
        case 2: {
          const script = /`(sh \/skills\/[^`]+)`/.exec(results[1] ?? '');
          observe('read-skill');
          return script
            ? { toolCalls: [{ name: 'read_skill', arguments: { path: `/skills/${skill[1]}/scripts/make-report.sh` } }] }
            : { text: 'The skill gives no command.' };
        }
        case 3: {
          observe('read-script');
          const command = /`(sh \/skills\/[^`]+)`/.exec(results[1] ?? '')?.[1] ?? '';
          return { toolCalls: [{ name: 'run_command', arguments: { command } }] };
        }
        case 4:
          return { toolCalls: [{ name: 'run_command', arguments: { command: 'id -u; ls /; cat /work/report.txt' } }] };
        default:
          return { text: `Done.\n${results[4]}` };
      }
    },
  });
}

describeWithBubblewrap('a ReAct run with a skill and the bubblewrap sandbox (K-1, K-2)', () => {
  it('discovers the skill, reads it, and runs its script in the sandbox', async () => {
    const catalog = await loadSkills({ roots: [skillsRoot] });
    const workspace = createWorkspace({
      root: join(directory, 'agent'),
      skills: catalog.skills,
      sandbox: new BubblewrapSandbox(),
    });
    const store = new MemoryRunStore();
    const steps: string[] = [];
    const marker = (runId: string) => join(workspace.workDirectory({ sessionId: 'session-1', runId }), '.make-report-ran');
    let runId = '';
    const agent = new Agent({
      name: 'reporter',
      mode: 'react',
      model: reportModel((step) => steps.push(`${step}:${existsSync(marker(runId)) ? 'script-ran' : 'script-not-run'}`)),
      prompt: `You write reports.\n\n${catalog.promptSection}`,
      tools: [...catalog.tools, ...workspace.tools],
      store,
      execution: { toolTimeoutMs: 20_000 },
    });
    const run = agent.run({ sessionId: 'session-1', input: 'Make a report of my notes.' });
    runId = run.runId;
    const result = await run.result();
    expect(result.status, JSON.stringify(result)).toBe('succeeded');
    // Reading SKILL.md and the script file ran nothing.
    expect(steps).toEqual(['read-skill:script-not-run', 'read-script:script-not-run']);
    const journal = await store.readJournal(run.runId);
    const outputs = journal
      .filter((entry) => entry.type === 'operation-finished')
      .map((entry) => (entry.data as { content: string }).content);
    expect(outputs[2]).toContain('date +%s > /work/.make-report-ran');
    expect(outputs[3]).toBe('exit code: 0\n--- stdout ---\nREPORT: 2 lines of notes');
    // The script's files landed in the run's work directory on the host.
    expect(readFileSync(join(workspace.workDirectory({ sessionId: 'session-1', runId: run.runId }), 'report.txt'), 'utf8')).toBe(
      'REPORT: 2 lines of notes\n* alpha\n* beta\n',
    );
    expect(existsSync(marker(run.runId))).toBe(true);
    // Inside the sandbox: an unprivileged user, only the view and system programs at the root.
    const inside = result.output ?? '';
    expect(inside).toContain('exit code: 0');
    expect(inside.split('\n')[3]).toBe('65534');
    const rootEntries = inside.split('\n').slice(4, -3);
    expect(rootEntries).toEqual(expect.arrayContaining(['skills', 'work', 'usr', 'tmp']));
    expect(rootEntries).not.toEqual(expect.arrayContaining(['home']));
    expect(rootEntries).not.toContain('root');
    expect(await workspace.cleanupRun(run.runId, store)).toEqual({ runId: run.runId, outcome: 'removed' });
  });
});
