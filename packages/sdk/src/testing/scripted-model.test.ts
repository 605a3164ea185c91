import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/language-model.js';
import { ScriptedModel } from './scripted-model.js';

async function ask(model: ScriptedModel, question: string): Promise<string> {
  const request: ModelRequest = { system: '', messages: [{ role: 'user', content: question }], tools: [] };
  let text = '';
  for await (const part of model.doStream(request, { signal: new AbortController().signal })) {
    if (part.type === 'text-delta') text += part.text;
  }
  return text;
}

describe('ScriptedModel request log (issue 18)', () => {
  it('keeps only the latest keepRequests requests and still counts every one', async () => {
    const model = new ScriptedModel({ keepRequests: 2, respond: (_request, call) => ({ text: `answer ${call.index}` }) });
    const answers: string[] = [];
    for (let index = 0; index < 5; index += 1) answers.push(await ask(model, `question ${index}`));
    expect(answers).toEqual(['answer 0', 'answer 1', 'answer 2', 'answer 3', 'answer 4']);
    expect(model.requestCount).toBe(5);
    expect(model.requests.map((request) => request.messages[0]?.content)).toEqual(['question 3', 'question 4']);
  });

  it('answers scripted replies in order past the kept window', async () => {
    const model = new ScriptedModel({ keepRequests: 1, replies: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
    expect([await ask(model, '1'), await ask(model, '2'), await ask(model, '3')]).toEqual(['a', 'b', 'c']);
    expect(model.requests).toHaveLength(1);
  });

  it('keeps 1,000 requests by default, and none with keepRequests 0', async () => {
    const bounded = new ScriptedModel({ respond: () => ({ text: 'ok' }) });
    for (let index = 0; index < 1_001; index += 1) await ask(bounded, `q${index}`);
    expect(bounded.requests).toHaveLength(1_000);
    expect(bounded.requests[0]?.messages[0]?.content).toBe('q1');
    expect(bounded.requestCount).toBe(1_001);
    const none = new ScriptedModel({ keepRequests: 0, respond: () => ({ text: 'ok' }) });
    await ask(none, 'q');
    expect(none.requests).toHaveLength(0);
    expect(none.requestCount).toBe(1);
  });

  it('refuses a negative or fractional keepRequests', () => {
    expect(() => new ScriptedModel({ keepRequests: -1, replies: [] })).toThrow(RangeError);
    expect(() => new ScriptedModel({ keepRequests: 1.5, replies: [] })).toThrow(RangeError);
  });
});
