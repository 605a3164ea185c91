import { z } from 'zod';
import { intentCatalogSchema } from '../catalog/catalog-schema.js';
import { type CompiledCatalog, compileCatalog } from '../catalog/compile-catalog.js';
import { type Command, commandSchema, refKey } from '../commands/command.js';
import { applyCommands, type DialogueState } from '../commands/dialogue-state.js';
import { type IntentProblem, InvalidCatalogError, InvalidCorpusError, pathOf } from '../errors/index.js';

/**
 * The evaluation corpus format: `{ "catalog": IntentCatalog, "dialogues": [{ "id", "turns":
 * [{ "user", "expect": Command[] }] }] }`. Keys beyond these are ignored (a corpus may carry notes);
 * the catalog and the expected commands are checked strictly.
 */
export const corpusSchema = z
  .object({
    catalog: intentCatalogSchema,
    dialogues: z
      .array(
        z.object({
          id: z.union([z.string().min(1), z.number()]).describe('A name for the dialogue, unique in the corpus.'),
          turns: z
            .array(
              z.object({
                user: z.string().describe('What the user says.'),
                expect: z.array(commandSchema).describe('The commands the turn should give (may be empty).'),
              }),
            )
            .min(1),
        }),
      )
      .min(1),
  })
  .describe('An intent evaluation corpus: a catalog and multi-turn dialogues with the commands each turn should give.');

/** A corpus read and checked: its catalog compiled. */
export interface Corpus {
  catalog: CompiledCatalog;
  dialogues: Array<{ id: string; turns: Array<{ user: string; expect: Command[] }> }>;
}

/** Checks a parsed JSON corpus; throws `InvalidCorpusError` listing every problem (catalog problems under `catalog.`). */
export function readCorpus(input: unknown): Corpus {
  const parsed = corpusSchema.safeParse(input);
  if (!parsed.success) {
    throw new InvalidCorpusError(parsed.error.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message })));
  }
  let catalog: CompiledCatalog;
  try {
    catalog = compileCatalog(parsed.data.catalog);
  } catch (error) {
    if (error instanceof InvalidCatalogError) {
      throw new InvalidCorpusError(error.problems.map((problem) => ({ ...problem, path: `catalog.${problem.path}` })));
    }
    throw error;
  }
  const problems: IntentProblem[] = [];
  const ids = new Set<string>();
  const dialogues = parsed.data.dialogues.map((dialogue, index) => {
    const id = String(dialogue.id);
    if (ids.has(id)) problems.push({ path: `dialogues.${index}.id`, message: `"${id}" is used twice` });
    ids.add(id);
    let state: DialogueState = {};
    dialogue.turns.forEach((turn, turnIndex) => {
      for (const message of expectationProblems(catalog, state, turn.expect)) {
        problems.push({ path: `dialogues.${index}.turns.${turnIndex}.expect`, message });
      }
      state = applyCommands(state, turn.expect, catalog);
    });
    return { id, turns: dialogue.turns };
  });
  if (problems.length > 0) throw new InvalidCorpusError(problems);
  return { catalog, dialogues };
}

/**
 * What is wrong with a turn's expected commands against the catalog and the state the turn
 * starts in: actions the catalog lacks, slots of no started or active action, values of the wrong
 * type, category values that are not canonical allowed values. Such a turn could never be met.
 */
function expectationProblems(catalog: CompiledCatalog, state: DialogueState, expect: readonly Command[]): string[] {
  const problems: string[] = [];
  const started = expect.flatMap((command) => (command.type === 'start' ? [command.action] : []));
  const holders = (started.length > 0 ? started : state.activeAction ? [state.activeAction] : []).flatMap(
    (ref) => catalog.action(refKey(ref)) ?? [],
  );
  for (const command of expect) {
    if (command.type === 'start' && !catalog.action(refKey(command.action)))
      problems.push(`${refKey(command.action)} is not an action of the catalog`);
    if (command.type === 'clarify') {
      for (const option of command.options) {
        if (!catalog.action(refKey(option))) problems.push(`clarify option ${refKey(option)} is not an action of the catalog`);
      }
    }
    if (command.type !== 'setSlot' && command.type !== 'correctSlot') continue;
    const slot = holders.flatMap((holder) => holder.slots).find((candidate) => candidate.slot.name === command.name)?.slot;
    if (!slot) {
      const names = holders.map((holder) => holder.key).join(', ');
      problems.push(`"${command.name}" is not a slot of ${names || 'any started or active action'}`);
      continue;
    }
    const value = command.value;
    const wrongType =
      (slot.type === 'number' && typeof value !== 'number') ||
      (slot.type === 'boolean' && typeof value !== 'boolean') ||
      ((slot.type === 'text' || slot.type === 'category') && typeof value !== 'string');
    if (wrongType) problems.push(`${JSON.stringify(value)} is not a ${slot.type} for "${command.name}"`);
    else if (slot.type === 'category' && !slot.allowedValues?.some((allowed) => allowed.value === value)) {
      problems.push(`${JSON.stringify(value)} is not an allowed value of "${command.name}"`);
    }
  }
  return problems;
}
