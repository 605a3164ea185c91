import type { UserCommand } from './context-feature-options.js';

const commandLine = /^\/([A-Za-z0-9_.-]{1,64})(?:\s+([\s\S]*))?$/;

/**
 * Expands a new run's input `/name rest` to the stored prompt of command `name` (N-15): `{{args}}`
 * in the prompt becomes `rest`; without the placeholder, a non-empty `rest` follows the prompt
 * after a blank line. Only text the user typed at the start of a run's input is expanded, never
 * a model's output or a supplement; an unknown `/name` stays as it is (it may be a path).
 * Answers `undefined` when the input is not a known command.
 */
export function expandUserCommand(
  commands: readonly UserCommand[],
  input: string,
): { text: string; command: string } | undefined {
  const match = commandLine.exec(input.trim());
  if (!match) return undefined;
  const command = commands.find((candidate) => candidate.name === match[1]);
  if (!command) return undefined;
  const args = (match[2] ?? '').trim();
  const text = command.prompt.includes('{{args}}')
    ? command.prompt.replaceAll('{{args}}', args)
    : args
      ? `${command.prompt}\n\n${args}`
      : command.prompt;
  return { text, command: command.name };
}
