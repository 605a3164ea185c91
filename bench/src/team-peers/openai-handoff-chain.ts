/** bench:team's handoff chain with OpenAI Agents: each agent's handoff is the next agent. */
import { Agent, type Model, run, type Session } from '@openai/agents-core';
import type { ChainModels } from '../team-script.js';

export function buildChain(models: ChainModels<Model>) {
  const audit = new Agent({ name: 'audit', instructions: 'You check and answer.', model: models.audit });
  const payouts = new Agent({ name: 'payouts', instructions: 'You pay refunds out.', model: models.payouts, handoffs: [audit] });
  const refunds = new Agent({ name: 'refunds', instructions: 'You handle refunds.', model: models.refunds, handoffs: [payouts] });
  const billing = new Agent({ name: 'billing', instructions: 'You handle billing.', model: models.billing, handoffs: [refunds] });
  return new Agent({ name: 'triage', instructions: 'You sort requests.', model: models.triage, handoffs: [billing] });
}

export async function runChain(triage: Agent, task: string, session: Session) {
  return run(triage, task, { session });
}
