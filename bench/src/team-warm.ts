/**
 * `bench:team:warm`: the per-turn CPU overhead of one contestant of `bench:team` once the JIT has
 * warmed up — many runs of the same team (`N`, default 1000) in one process, median and first
 * quartile. `bench:team` measures 15 runs after 3 warm-ups, mostly before V8 optimises the code;
 * this shows where each framework settles, and is the process to profile:
 * `SCEN='group chat' KIND=sqlite WHO=agentloom node --cpu-prof … src/team-warm.ts` (like `bench:team`, on the
 * built SDK: `npm run build -w @agentloom/sdk` first).
 *
 * SCEN: `handoff chain` (default) or `group chat`; KIND: `memory` (default) or `sqlite` (AgentLoom's
 * store; OpenAI Agents keeps a `MemorySession` either way); WHO: contestants, default `agentloom,openai`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTracingDisabled } from '@openai/agents-core';
import { agentloomContestant, openaiContestant, type Scenario } from './team-contestants.js';
import { CHAIN_MEMBERS, CHAT_TURNS, TeamScript } from './team-script.js';
import { openStores, type StoreKind } from './workflow-stores.js';

setTracingDisabled(true);
const scenario = (process.env.SCEN ?? 'handoff chain') as Scenario;
const kind = (process.env.KIND ?? 'memory') as StoreKind;
const runs = Number(process.env.N ?? 1000);
const turns = scenario === 'group chat' ? CHAT_TURNS : CHAIN_MEMBERS.length;
const directory = mkdtempSync(join(tmpdir(), 'agentloom-team-warm-'));
const stores = await openStores(kind, directory);
try {
  for (const who of (process.env.WHO ?? 'agentloom,openai').split(',')) {
    const script = new TeamScript();
    const contestant =
      who === 'agentloom' ? agentloomContestant(scenario, script, stores, kind) : openaiContestant(scenario, script);
    const cpu: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      script.reset();
      const started = process.cpuUsage();
      await contestant.run(`team-warm-${who}-${run}`);
      const used = process.cpuUsage(started);
      cpu.push((used.user + used.system - script.modelMs * 1000) / turns);
    }
    cpu.sort((a, b) => a - b);
    const at = (share: number) => (cpu[Math.floor(cpu.length * share)] as number).toFixed(0);
    console.log(
      `${contestant.framework} (${contestant.store}), ${scenario}: CPU µs/turn median ${at(0.5)}, p25 ${at(0.25)} (${runs} runs)`,
    );
  }
} finally {
  await stores.close();
  rmSync(directory, { recursive: true, force: true });
}
