#!/usr/bin/env node
// In the repository the CLI runs from source (TypeScript through tsx); an installed package runs
// its compiled `dist/`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
if (existsSync(source)) {
  const child = spawn(process.execPath, ['--conditions=@agentloom/source', '--import', 'tsx', source, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await import('../dist/cli/main.js');
}
