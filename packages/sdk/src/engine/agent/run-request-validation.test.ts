import { describe, expect, it } from 'vitest';
import { InvalidIdentifierError, InvalidRunRequestError } from '../../core/errors/index.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';

/** Issue 18, item 6: `run()` refuses bad ids and limits at once, before anything is stored. */
describe('agent.run() request validation', () => {
  const store = new MemoryRunStore();
  const model = new ScriptedModel({ replies: [] });
  const agent = new Agent({ name: 'a', mode: 'react', model, prompt: 'p', store });

  it('refuses run ids that are empty, not strings, too long, malformed Unicode or contain NUL', async () => {
    for (const runId of ['', 42, { id: 1 }, 'x'.repeat(256), 'a\ud800', 'a\u0000b']) {
      expect(() => agent.run({ sessionId: 's', runId: runId as string, input: 'go' })).toThrow(InvalidIdentifierError);
    }
    for (const sessionId of ['', 'b\udfff', undefined]) {
      expect(() => agent.run({ sessionId: sessionId as string, input: 'go' })).toThrow(InvalidIdentifierError);
    }
    expect(await store.listSessionRuns('s')).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  it('refuses negative, fractional or non-numeric limits', () => {
    for (const limits of [
      { maxLoops: -1 },
      { maxLoops: 1.5 },
      { maxLoops: '3' },
      { deadlineAt: Number.NaN },
      { deadlineAt: 'soon' },
    ]) {
      expect(() => agent.run({ sessionId: 's', input: 'go', limits: limits as never })).toThrow(InvalidRunRequestError);
    }
  });
});
