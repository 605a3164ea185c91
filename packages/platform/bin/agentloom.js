#!/usr/bin/env node
/**
 * `agentloom serve | worker | migrate | create-admin`: runs the built CLI (`dist/cli/agentloom.js`,
 * one JavaScript module with its dependencies) in this very process — no launcher child, no
 * TypeScript compiled at start — so the PID a supervisor holds is the server: SIGTERM drains it,
 * SIGKILL leaves nothing behind.
 *
 * `npm ci` builds `dist/` (the root `prepare`) and the packed package ships it. In a checkout
 * whose build is missing or older than its sources, it refuses to start and says which command
 * builds it, rather than run old code (docs/decisions/0018-built-server.md).
 */
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/agentloom.js', import.meta.url);
if (existsSync(new URL('../src/', import.meta.url))) {
  const { buildProblem } = await import('../scripts/build-state.js');
  const problem = buildProblem();
  if (problem) {
    console.error(`agentloom: ${problem}`);
    process.exit(1);
  }
} else if (!existsSync(cli)) {
  console.error(`agentloom: this installation has no built server (${cli.pathname}): reinstall the package.`);
  process.exit(1);
}
const { runAndExit } = await import(cli.href);
runAndExit(process.argv.slice(2));
