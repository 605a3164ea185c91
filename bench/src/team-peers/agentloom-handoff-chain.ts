/** bench:team's handoff chain with AgentLoom: each member hands the answer to the next, the last answers. */
import { handoff, type LanguageModel, type RunStore, Team } from '@agentloom/sdk';
import type { ChainModels } from '../team-script.js';

export function buildChain(models: ChainModels<LanguageModel>, store: RunStore) {
  return new Team({
    name: 'support',
    members: [
      { name: 'triage', instructions: 'You sort requests.', model: models.triage },
      { name: 'billing', instructions: 'You handle billing.', model: models.billing },
      { name: 'refunds', instructions: 'You handle refunds.', model: models.refunds },
      { name: 'payouts', instructions: 'You pay refunds out.', model: models.payouts },
      { name: 'audit', instructions: 'You check and answer.', model: models.audit },
    ],
    topology: handoff({
      entry: 'triage',
      handoffs: { triage: ['billing'], billing: ['refunds'], refunds: ['payouts'], payouts: ['audit'] },
    }),
    store,
  });
}

export async function runChain(team: Team, task: string, id: string) {
  return team.run({ sessionId: id, input: task }).result();
}
