/** The `agentloom-intent` command (see `USAGE`). */
import { runCli } from './run-cli.js';

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = code;
