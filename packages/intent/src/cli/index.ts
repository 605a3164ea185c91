export { type CliIo, runCli, USAGE } from './run-cli.js';
