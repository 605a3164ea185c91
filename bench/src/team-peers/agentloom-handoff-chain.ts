/** bench:team's handoff chain with AgentLoom: each member hands the answer to the next, the last answers. */
import { handoff, type LanguageModel, type RunStore, type Team } from '@agentloom/sdk';
import type { ChainModels } from '../team-script.js';

export function buildChain(models: ChainModels<LanguageModel>, store: RunStore) {
  const audit = { name: 'audit', instructions: 'You check and answer.', model: models.audit };
  const payouts = { name: 'payouts', instructions: 'You pay refunds out.', model: models.payouts, handoffs: [audit] };
  const refunds = { name: 'refunds', instructions: 'You handle refunds.', model: models.refunds, handoffs: [payouts] };
  const billing = { name: 'billing', instructions: 'You handle billing.', model: models.billing, handoffs: [refunds] };
  return handoff({ name: 'triage', instructions: 'You sort requests.', model: models.triage, handoffs: [billing] }, { store });
}

export async function runChain(team: Team, task: string, id: string) {
  return team.run({ sessionId: id, input: task }).result();
}
