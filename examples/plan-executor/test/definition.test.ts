/**
 * The example team built from `definitions/energy-brief.json` behaves exactly like the one built
 * in code: same model requests for every role (prompts, tool and delegation definitions, the
 * summarizer's output contract), same events, same answer, same loops.
 */
import { fileURLToPath } from 'node:url';
import { type Agent, type AgentRunEvent, MemoryRunStore } from '@agentloom/sdk';
import { describe, expect, it } from 'vitest';
import { createTeam, createTeamFromDefinition, offlineModel, type TeamOptions } from '../src/team.js';

const knowledgePath = fileURLToPath(new URL('../data/knowledge.md', import.meta.url));

async function runWith(build: (options: TeamOptions) => Agent) {
  const model = offlineModel();
  const team = build({ store: new MemoryRunStore(), model, knowledgePath });
  const run = team.run({ sessionId: 'example', input: 'Give me a short brief on solar and wind power.' });
  const events: string[] = [];
  for await (const event of run.events() as AsyncIterable<AgentRunEvent>) {
    if (event.type === 'task-start' || event.type === 'task-finish') events.push(`${event.type} ${event.role}`);
  }
  const result = await run.result();
  // Requests of parallel executors may reach the model in either order: compare them as a set.
  const requests = model.requests.map((request) => JSON.stringify(request)).sort();
  return { result: { status: result.status, output: result.output, loops: result.loops }, requests, roles: events.sort() };
}

describe('plan-executor example from its JSON definition', () => {
  it('gets the same result as the team built in code', async () => {
    const fromCode = await runWith(createTeam);
    const fromDefinition = await runWith(createTeamFromDefinition);
    expect(fromCode.result.status).toBe('succeeded');
    expect(fromCode.result.loops).toBe(8);
    expect(fromCode.result.output?.startsWith('Solar and wind, in brief')).toBe(true);
    expect(fromDefinition).toEqual(fromCode);
  });
});
