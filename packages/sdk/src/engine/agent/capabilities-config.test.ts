import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadSkills } from '../../capabilities/skills/load-skills.js';
import { tool } from '../../capabilities/tools/tool.js';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import { createWorkspace } from '../../sandbox/workspace.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';

const root = mkdtempSync(join(tmpdir(), 'agentloom-workspace-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const skillsRoot = new URL('../../capabilities/skills/__fixtures__/valid', import.meta.url).pathname;

describe('workspace and skills on an agent (F-1, F-4, K-1)', () => {
  it('gives every role the workspace file tools and removes a temporary run directory once the run has settled', async () => {
    const workspace = createWorkspace({ root: join(root, 'agent') });
    let sawDirectory = false;
    const model = new ScriptedModel({
      respond: (request) => {
        const result = request.messages.find((message) => message.role === 'tool');
        if (result) return { text: `wrote: ${result.content}` };
        return { toolCalls: [{ name: 'write_file', arguments: { path: 'draft.md', content: 'hello' } }] };
      },
    });
    const store = new MemoryRunStore();
    const agent = new Agent({ name: 'writer', mode: 'react', model, prompt: 'You write files.', workspace, store });
    expect(model.requests).toHaveLength(0);
    const run = agent.run({ sessionId: 's', input: 'write a draft' });
    for await (const event of run.events()) {
      if (event.type === 'tool-call-finish') sawDirectory = existsSync(join(root, 'agent', 'runs', run.runId));
    }
    const result = await run.result();
    expect(result.status).toBe('succeeded');
    expect(sawDirectory).toBe(true);
    expect(model.requests[0]?.tools.map((definition) => definition.name)).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'list_files']),
    );
    expect(existsSync(join(root, 'agent', 'runs', run.runId))).toBe(false);
  });

  it('lists a role its skills in its prompt and gives it read_skill; a tool name given twice is refused', async () => {
    const skills = await loadSkills({ roots: [skillsRoot] });
    const model = new ScriptedModel({ replies: [{ text: 'ok' }] });
    const agent = new Agent({ name: 'skilled', mode: 'react', model, prompt: 'Base prompt.', skills });
    await agent.run({ sessionId: 's', input: 'hi' }).result();
    expect(model.requests[0]?.system.startsWith('Base prompt.\n\n')).toBe(true);
    expect(model.requests[0]?.system).toContain(skills.skills[0]?.name ?? 'missing');
    expect(model.requests[0]?.tools.map((definition) => definition.name)).toContain('read_skill');
    const clash = tool({ name: 'read_skill', description: 'Mine.', parameters: z.object({}), execute: () => '' });
    expect(() => new Agent({ name: 'clash', mode: 'react', model, prompt: 'p', tools: [clash], skills })).toThrow(
      InvalidConfigurationError,
    );
  });
});
