/**
 * The example agent built from `definitions/word-counter.json` behaves exactly like the one built
 * in code: same model requests (prompt, tool definitions, messages), same answer, same loops, same
 * tool effects on real files.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Agent, MemoryRunStore } from '@agentloom/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { createExampleAgent, createExampleAgentFromDefinition, type ExampleAgentOptions, offlineModel } from '../src/agent.js';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

async function runWith(build: (options: ExampleAgentOptions) => Agent) {
  const directory = mkdtempSync(join(tmpdir(), 'agentloom-react-definition-'));
  directories.push(directory);
  const model = offlineModel();
  const paths = {
    notes: fileURLToPath(new URL('../data/notes.md', import.meta.url)),
    report: join(directory, 'report.txt'),
    effects: join(directory, 'effects.log'),
  };
  const agent = build({ store: new MemoryRunStore(), model, paths });
  const result = await agent.run({ sessionId: 'example', input: 'How many words are in my notes? Write a report.' }).result();
  return {
    result: { status: result.status, output: result.output, loops: result.loops },
    // The report's path differs by temporary directory; everything else must be identical.
    requests: JSON.stringify(model.requests).replaceAll(directory, '<directory>'),
    report: readFileSync(paths.report, 'utf8'),
    effects: readFileSync(paths.effects, 'utf8'),
  };
}

describe('react-agent example from its JSON definition', () => {
  it('gets the same result as the agent built in code', async () => {
    const fromCode = await runWith(createExampleAgent);
    const fromDefinition = await runWith(createExampleAgentFromDefinition);
    expect(fromCode.result.status).toBe('succeeded');
    expect(fromCode.result.loops).toBe(4);
    expect(fromDefinition).toEqual(fromCode);
  });
});
