#!/usr/bin/env node
// The `agentloom` launcher as it was before the server was built (issue 29), kept as the baseline
// of `bench:startup`: it runs the TypeScript CLI with tsx in a child process and forwards only
// SIGINT/SIGTERM (a SIGKILL of this process orphans the child).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../../packages/platform/src/cli/main.ts', import.meta.url));
const child = spawn(process.execPath, ['--conditions=@agentloom/source', '--import', 'tsx', main, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
