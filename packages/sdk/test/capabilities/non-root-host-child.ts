/**
 * A host process that is not root (started as an unprivileged user by the test) runs a script in
 * bubblewrap that tries to leave set-id programs in its work directory, and prints what it left.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap/index.js';
import { createWorkspace } from '../../src/sandbox/index.js';
import { callTool, toolContext } from './capability-harness.js';

const root = process.env.AGENTLOOM_TEST_ROOT as string;
const sandbox = new BubblewrapSandbox();
const workspace = createWorkspace({ root, sandbox });
const scope = { sessionId: 'non-root-session', runId: 'non-root-run' };
const output = String(
  await callTool(
    workspace.tools,
    'run_command',
    {
      command:
        'cp /usr/bin/cat /work/suid-cat; chmod 4755 /work/suid-cat; echo chmod=$?; ' +
        `python3 -c "import os; os.open('/work/opened', os.O_CREAT | os.O_WRONLY, 0o6755)"; echo open=$?`,
    },
    toolContext(scope),
  ),
);
const work = workspace.workDirectory(scope);
const modes = Object.fromEntries(
  ['suid-cat', 'opened'].map((name) => {
    try {
      return [name, statSync(join(work, name)).mode & 0o7777];
    } catch {
      return [name, null];
    }
  }),
);
console.log(`RESULT ${JSON.stringify({ uid: process.getuid?.(), hostUser: sandbox.hostUser ?? null, output, modes })}`);
