/** The intent-router example's conversation passes its own checks (it throws on the first that fails). */
import { describe, expect, it } from 'vitest';
import { runConversation } from '../src/conversation.js';

describe('intent-router example', () => {
  it('asks for a missing slot, starts the right agent with the right input, stops it on cancel, starts nothing on chit-chat', async () => {
    const turns = await runConversation(() => {});
    expect(turns.map((turn) => [turn.decidedBy, turn.commands.map((command) => command.type)])).toEqual([
      ['rules', ['chitChat']],
      ['rules', ['start']],
      ['rules', ['setSlot']],
      ['rules', ['start', 'setSlot']],
      ['rules', ['cancel']],
      ['fallback', ['cannotHandle']],
    ]);
  });
});
