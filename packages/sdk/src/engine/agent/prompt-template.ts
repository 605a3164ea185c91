import { AgentLoomError, hasErrorCode } from '../../core/errors/index.js';

const placeholder = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The variable names a prompt template declares with `{{name}}`, in first-use order. */
export function templateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(placeholder)].map((match) => match[1] as string))];
}

/** Fills a prompt template. Every declared variable must have a value (checked before the run). */
export function renderTemplate(template: string, variables: Readonly<Record<string, string>>): string {
  return template.replace(placeholder, (_, name: string) => variables[name] as string);
}

/**
 * A prompt declares a variable that neither the agent configuration nor the run supplied: the
 * run is refused before anything is journaled, rather than sent with an empty string (C-12).
 */
export class MissingPromptVariableError extends AgentLoomError {
  readonly missing: readonly string[];

  constructor(missing: readonly string[]) {
    super('missing-prompt-variable', `Prompt variables without a value: ${missing.join(', ')}.`);
    this.missing = missing;
  }

  static override isInstance(error: unknown): error is MissingPromptVariableError {
    return hasErrorCode(error, 'missing-prompt-variable');
  }
}

/** Checks that every variable the prompts declare has a value; throws `MissingPromptVariableError`. */
export function assertVariablesComplete(templates: readonly string[], variables: Readonly<Record<string, string>>): void {
  const missing = [...new Set(templates.flatMap(templateVariables))].filter((name) => typeof variables[name] !== 'string');
  if (missing.length > 0) throw new MissingPromptVariableError(missing);
}
