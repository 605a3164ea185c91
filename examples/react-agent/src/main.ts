/**
 * Self-verifying example: a ReAct agent answers with real tools; then a second run is SIGKILLed
 * in a child process right after its second tool ran, and this process resumes the same run from
 * the same SQLite file. It asserts the answers, that no saved tool result ran twice, and exits
 * non-zero on any failure.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentRunResult, createLanguageModelFromEnvironment, RunOwnedElsewhereError } from '@agentloom/sdk';
import { SqliteRunStore } from '@agentloom/sdk/store/sqlite';
import { createExampleAgent, type ExamplePaths, offlineModel } from './agent.js';

const notes = fileURLToPath(new URL('../data/notes.md', import.meta.url));
const expectedWords = readFileSync(notes, 'utf8')
  .split(/\s+/)
  .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`  ok  ${message}`);
}

function pathsIn(directory: string): ExamplePaths {
  return { notes, report: join(directory, 'report.txt'), effects: join(directory, 'effects.log') };
}

/** Child mode: run the agent and SIGKILL this very process as the third tool starts, before its effect. */
async function crashingChild(directory: string, runId: string): Promise<void> {
  const store = new SqliteRunStore({ path: join(directory, 'runs.db') });
  const agent = createExampleAgent({
    store,
    model: offlineModel(),
    paths: pathsIn(directory),
    beforeToolRuns: (name) => {
      if (name === 'write_report') process.kill(process.pid, 'SIGKILL');
    },
  });
  await agent.run({ sessionId: 'example', runId, input: 'How many words are in my notes? Write a report.' }).result();
}

async function resumeWhenFree(run: () => Promise<AgentRunResult>): Promise<AgentRunResult> {
  for (;;) {
    try {
      return await run();
    } catch (error) {
      if (!RunOwnedElsewhereError.isInstance(error)) throw error;
      console.log(`  ..  run still leased by a dead owner until ${new Date(error.leaseExpiresAt).toISOString()}; waiting`);
      await new Promise((resolve) => setTimeout(resolve, Math.max(10, error.leaseExpiresAt - Date.now() + 10)));
    }
  }
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'agentloom-example-'));
  try {
    const realModel = await createLanguageModelFromEnvironment();
    console.log(
      `1. A plain run (${realModel ? `real model ${realModel.provider}/${realModel.modelId}` : 'offline scripted model'})`,
    );
    const store = new SqliteRunStore({ path: join(directory, 'runs.db') });
    const paths = pathsIn(directory);
    const agent = createExampleAgent({ store, model: realModel ?? offlineModel(), paths });
    const run = agent.run({ sessionId: 'example', input: 'How many words are in my notes? Write a report.' });
    for await (const event of run.events()) {
      if (event.type === 'tool-call-finish') console.log(`  ->  ${event.toolName}: ${event.status}`);
    }
    const result = await run.result();
    console.log(`  ==  ${result.output}`);
    check(result.status === 'succeeded', 'the run succeeded');
    check(existsSync(paths.report), 'the report file was written');
    if (!realModel) {
      check(
        result.output === `Report written. The notes have ${expectedWords} words.`,
        `the answer counts ${expectedWords} words`,
      );
      check(result.loops === 4, 'it took 4 loops');
      check(readFileSync(paths.report, 'utf8').includes(`${expectedWords} words`), 'the report names the count');
    }
    await store.close();

    // The crash demonstration uses the scripted model: its answers are a pure function of the
    // conversation, so the resumed run can be compared with an uncrashed one.
    console.log('2. A run killed (SIGKILL) as its third tool starts, resumed by this process');
    const crashDirectory = join(directory, 'crash');
    mkdirSync(crashDirectory);
    const runId = 'example-crash-run';
    const signal = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), 'child', crashDirectory, runId],
        {
          stdio: 'inherit',
        },
      );
      child.on('error', reject);
      child.on('exit', (_code, exitSignal) => resolve(exitSignal));
    });
    check(signal === 'SIGKILL', 'the child process was killed with SIGKILL');
    const crashPaths = pathsIn(crashDirectory);
    check(!existsSync(crashPaths.report), 'the report was not written before the crash');
    const resumedStore = new SqliteRunStore({ path: join(crashDirectory, 'runs.db') });
    const resumer = createExampleAgent({ store: resumedStore, model: offlineModel(), paths: crashPaths });
    const resumed = await resumeWhenFree(() => resumer.run({ sessionId: 'example', runId }).result());
    check(
      resumed.output === `Report written. The notes have ${expectedWords} words.`,
      'the resumed run has the uncrashed answer',
    );
    check(resumed.loops === 4, 'the resumed run charged the same 4 loops');
    const effects = readFileSync(crashPaths.effects, 'utf8').trim().split('\n');
    check(
      JSON.stringify(effects) === JSON.stringify(['read_file', 'count_words', 'write_report']),
      'every tool ran exactly once across both processes',
    );
    const journal = await resumedStore.readJournal(runId);
    check(journal.filter((entry) => entry.type === 'run-started').length === 1, 'the input was recorded once');
    const unknown = journal.find(
      (entry) =>
        entry.type === 'attempt-failed' && (entry.data as { failure: { kind: string } }).failure.kind === 'unknown-outcome',
    );
    check(unknown !== undefined, 'the call in flight at the kill was recorded unknown, then retried');
    await resumedStore.close();
    console.log('react-agent example: all checks passed');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'child') {
  await crashingChild(process.argv[3] as string, process.argv[4] as string);
} else {
  await main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
