/**
 * Child process of the invalid-tool-call crash test: a ReAct agent on the SQLite file
 * `INVALID_STORE` whose scripted model always sends tool arguments that are not JSON. With
 * `INVALID_FREEZE_AFTER=<n>` the process freezes (for the parent to SIGKILL it) when the model is
 * asked again after `n` invalid calls were given back to it. Prints the run's result as
 * `RESULT <json>`; an `owned-elsewhere` answer is waited out until the dead owner's lease ends.
 */
import { z } from 'zod';
import { Agent, tool } from '../../src/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { freezeHere, report, waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const freezeAfter = environment.INVALID_FREEZE_AFTER ? Number(environment.INVALID_FREEZE_AFTER) : undefined;
const store = new SqliteRunStore({ path: environment.INVALID_STORE as string });
const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const model = new ScriptedModel({
  respond: (request) => {
    const given = request.messages.filter((message) => message.role === 'tool').length;
    if (given === freezeAfter) freezeHere(`model-request-after-${given}`);
    return { toolCalls: [{ name: 'add', argumentsText: '{"a": 1, "b": ' }] };
  },
});
const agent = new Agent({ name: 'sloppy', mode: 'react', model, prompt: 'Add.', tools: [add], store, leaseMs: 300 });
for (;;) {
  try {
    const result = await agent
      .run({ sessionId: 'invalid-calls', runId: environment.INVALID_RUN_ID as string, input: 'go' })
      .result();
    report('RESULT', result);
    break;
  } catch (error) {
    await waitOutOwner(error);
  }
}
await store.close();
