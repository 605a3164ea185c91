#!/usr/bin/env node
// Runs the TypeScript CLI with the workspace's source condition (the SDK is used from source).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const child = spawn(process.execPath, ['--conditions=@agentloom/source', '--import', 'tsx', main, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
