/**
 * Child process of the provider crash test: runs (or resumes) the weather task through both real
 * adapters at once, against the replay servers the parent names, on the SQLite file it names.
 * The parent SIGKILLs this process while both second model calls are mid-stream, then starts it
 * again. Prints `RESULT <provider> <json>` and `TOOL-CALLS <provider> <count>` per run.
 *
 * Environment: `CRASH_STORE` (SQLite path), `CRASH_OPENAI_URL`, `CRASH_ANTHROPIC_URL`,
 * `CRASH_RUN_PREFIX` (run ids are `<prefix>-<provider>`).
 */
import { RunOwnedElsewhereError } from '../../core/errors/index.js';
import type { LanguageModel } from '../../model/language-model.js';
import { SqliteRunStore } from '../../store/sqlite/sqlite-run-store.js';
import { createAnthropic } from '../anthropic/anthropic-provider.js';
import { createOpenAICompatible } from '../openai-compatible/openai-compatible-provider.js';
import { weatherAgent } from './weather-task.js';

const environment = process.env;
const store = new SqliteRunStore({ path: environment.CRASH_STORE as string });
const models: Record<string, LanguageModel> = {
  'openai-compatible': createOpenAICompatible({ apiKey: 'test-key', baseURL: `${environment.CRASH_OPENAI_URL}/v1` })(
    'gpt-5.4-mini',
  ),
  anthropic: createAnthropic({ apiKey: 'test-key', baseURL: environment.CRASH_ANTHROPIC_URL as string })('claude-sonnet-4-6'),
};

async function runToEnd(provider: string, model: LanguageModel): Promise<void> {
  // A short lease, so that the restarted process may take over soon after the kill.
  const { agent, calls } = weatherAgent(model, { store, leaseMs: 300 });
  for (;;) {
    const run = agent.run({
      sessionId: `crash-${provider}`,
      runId: `${environment.CRASH_RUN_PREFIX}-${provider}`,
      input: 'Weather?',
    });
    try {
      const result = await run.result();
      process.stdout.write(`TOOL-CALLS ${provider} ${calls.length}\n`);
      process.stdout.write(`RESULT ${provider} ${JSON.stringify(result)}\n`);
      return;
    } catch (error) {
      if (!RunOwnedElsewhereError.isInstance(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.max(10, error.leaseExpiresAt - Date.now() + 10)));
    }
  }
}

await Promise.all(Object.entries(models).map(([provider, model]) => runToEnd(provider, model)));
await store.close();
