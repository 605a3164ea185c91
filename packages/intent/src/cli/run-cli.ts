import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { type CommandType, commandTypes } from '../commands/command.js';
import type { Embedder } from '../embedders/embedder.js';
import { createHashingEmbedder } from '../embedders/hashing-embedder.js';
import { createOpenAICompatibleEmbedder } from '../embedders/openai-compatible-embedder.js';
import { IntentError } from '../errors/index.js';
import { readCorpus } from '../evaluation/corpus-schema.js';
import { evaluateCorpus } from '../evaluation/evaluate.js';
import { formatReport, type TurnListing } from '../evaluation/format-report.js';
import { checkThresholds, type Thresholds } from '../evaluation/thresholds.js';

export const USAGE = `Usage: agentloom-intent eval <corpus.json> [options]

Runs every dialogue of the corpus through understand() and prints precision / recall / F1 per
command type and per action, a confusion table, and the layer that decided each turn. Dialogue
state between turns comes from applying each turn's expected commands.

Thresholds (the exit code is 1 when one is not met):
  --min-f1 <0..1>              micro F1 over all commands
  --min-precision <0..1>       micro precision
  --min-recall <0..1>          micro recall
  --min-turn-accuracy <0..1>   share of turns whose commands are exactly right
  --min-type-f1 <type=0..1>    F1 of one command type (repeatable): --min-type-f1 cannotHandle=0.8

Layers:
  --embedder hashing|none|openai-compatible   similarity layer (default: hashing, offline)
  --embedder-url <url>         base URL of an OpenAI-compatible API (with openai-compatible)
  --embedder-model <name>      embedding model (with openai-compatible)
  AGENTLOOM_INTENT_EMBEDDER_API_KEY   its API key, from the environment

Output:
  --turns all|errors|none      which turns to list (default: all)
  --json <file>                also write the whole report as JSON
Exit codes: 0 thresholds met, 1 a threshold not met, 2 bad arguments or an unreadable corpus.
`;

/** Where the CLI writes, and what it reads from its environment (injected for tests). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env?: Record<string, string | undefined>;
}

class UsageError extends Error {}

function fraction(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new UsageError(`${name} takes a number from 0 to 1, got "${text}"`);
  return value;
}

/**
 * `agentloom-intent eval <corpus.json> …`: reads the corpus, evaluates it, prints the report and
 * returns the exit code (0 met, 1 a threshold missed, 2 a usage or corpus error).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  try {
    const corpus = readCorpus(JSON.parse(await readFile(parsed.corpusPath, 'utf8')));
    const embedder = makeEmbedder(parsed, io.env ?? process.env);
    const report = await evaluateCorpus(corpus, embedder ? { embedder } : {});
    const checks = checkThresholds(report, parsed.thresholds);
    const title = `Intent evaluation of ${basename(parsed.corpusPath)}: ${corpus.dialogues.length} dialogues, ${report.turns.length} turns; layers: rules, ${embedder ? `similarity (${embedder.name})` : 'no similarity'}, no model`;
    io.stdout(formatReport(report, { title, turns: parsed.turns, thresholds: checks }));
    if (parsed.json) await writeFile(parsed.json, `${JSON.stringify({ ...report, thresholds: checks }, null, 2)}\n`);
    return checks.every((check) => check.met) ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError || IntentError.isInstance(error) || error instanceof SyntaxError || isFileError(error)) {
      io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    throw error;
  }
}

function isFileError(error: unknown): boolean {
  return typeof (error as { code?: unknown })?.code === 'string' && typeof (error as { path?: unknown }).path === 'string';
}

function parse(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      'min-f1': { type: 'string' },
      'min-precision': { type: 'string' },
      'min-recall': { type: 'string' },
      'min-turn-accuracy': { type: 'string' },
      'min-type-f1': { type: 'string', multiple: true },
      embedder: { type: 'string' },
      'embedder-url': { type: 'string' },
      'embedder-model': { type: 'string' },
      turns: { type: 'string' },
      json: { type: 'string' },
    },
  });
  if (values.help) return { help: true as const };
  const [command, corpusPath, ...rest] = positionals;
  if (command !== 'eval') throw new UsageError(command === undefined ? 'missing command: eval' : `unknown command "${command}"`);
  if (corpusPath === undefined) throw new UsageError('missing the corpus file');
  if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
  const typeF1: Partial<Record<CommandType, number>> = {};
  for (const entry of values['min-type-f1'] ?? []) {
    const [type, minimum] = entry.split('=');
    if (!commandTypes.includes(type as CommandType))
      throw new UsageError(`--min-type-f1: "${type}" is not a command type (${commandTypes.join(', ')})`);
    typeF1[type as CommandType] = fraction('--min-type-f1', minimum);
  }
  const thresholds: Thresholds = { typeF1 };
  const set = (key: 'f1' | 'precision' | 'recall' | 'turnAccuracy', option: string) => {
    const value = fraction(`--${option}`, values[option as keyof typeof values] as string | undefined);
    if (value !== undefined) thresholds[key] = value;
  };
  set('f1', 'min-f1');
  set('precision', 'min-precision');
  set('recall', 'min-recall');
  set('turnAccuracy', 'min-turn-accuracy');
  const turns = (values.turns ?? 'all') as TurnListing;
  if (!['all', 'errors', 'none'].includes(turns)) throw new UsageError(`--turns takes all, errors or none, got "${turns}"`);
  const embedder = values.embedder ?? 'hashing';
  if (!['hashing', 'none', 'openai-compatible'].includes(embedder)) {
    throw new UsageError(`--embedder takes hashing, none or openai-compatible, got "${embedder}"`);
  }
  if (embedder === 'openai-compatible' && (!values['embedder-url'] || !values['embedder-model'])) {
    throw new UsageError('--embedder openai-compatible needs --embedder-url and --embedder-model');
  }
  return {
    help: false as const,
    corpusPath,
    thresholds,
    turns,
    embedder,
    embedderUrl: values['embedder-url'],
    embedderModel: values['embedder-model'],
    json: values.json,
  };
}

function makeEmbedder(
  parsed: Exclude<ReturnType<typeof parse>, { help: true }>,
  env: Record<string, string | undefined>,
): Embedder | undefined {
  if (parsed.embedder === 'none') return undefined;
  if (parsed.embedder === 'hashing') return createHashingEmbedder();
  const apiKey = env.AGENTLOOM_INTENT_EMBEDDER_API_KEY;
  return createOpenAICompatibleEmbedder({
    baseUrl: parsed.embedderUrl as string,
    model: parsed.embedderModel as string,
    ...(apiKey ? { apiKey } : {}),
  });
}
