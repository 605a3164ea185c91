/** bench:team's group chat with AgentLoom: two members, a selector model picks each speaker, 20 turns. */
import { groupChat, type LanguageModel, type RunStore, type SelectorModel, Team } from '@agentloom/sdk';
import type { ChatModels } from '../team-script.js';

export function buildChat(models: ChatModels<LanguageModel>, store: RunStore, selector: Partial<SelectorModel> = {}) {
  return new Team({
    name: 'release-note',
    members: [
      { name: 'writer', description: 'writes the note', instructions: 'You write the release note.', model: models.writer },
      { name: 'critic', description: 'checks the note', instructions: 'You check the release note.', model: models.critic },
    ],
    topology: groupChat({ speaker: { model: models.selector, ...selector } }),
    maxTurns: 20,
    store,
  });
}

export async function runChat(team: Team, task: string, id: string) {
  return team.run({ sessionId: id, input: task }).result();
}
