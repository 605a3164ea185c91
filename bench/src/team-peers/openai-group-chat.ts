/** bench:team's group chat with OpenAI Agents: a manager agent picks each speaker, the members as its tools. */
import { Agent, type Model, run, type Session } from '@openai/agents-core';
import type { ChatModels } from '../team-script.js';

export function buildChat(models: ChatModels<Model>) {
  const writer = new Agent({ name: 'writer', instructions: 'You write the release note.', model: models.writer });
  const critic = new Agent({ name: 'critic', instructions: 'You check the release note.', model: models.critic });
  return new Agent({
    name: 'selector',
    instructions: 'Pick who speaks next.',
    model: models.selector,
    tools: [
      writer.asTool({ toolName: 'writer', toolDescription: 'writes the note' }),
      critic.asTool({ toolName: 'critic', toolDescription: 'checks the note' }),
    ],
  });
}

export async function runChat(manager: Agent, task: string, session: Session) {
  return run(manager, task, { session, maxTurns: 25 });
}
