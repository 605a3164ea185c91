import { describe, expect, it } from 'vitest';
import { RunClient } from '../client/run-client.js';
import { compactTeamTurnTexts, restoreTeamTurnTexts } from '../engine/workflow/team-events.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { groupChat, maxTurns, Team } from './index.js';

/** A turn's text, long enough that saving it twice shows in the journal's size. */
const long = (speaker: string, turn: number) => `${speaker} ${turn}: ${'a considered paragraph of the answer. '.repeat(20)}`;

function chat(store: MemoryRunStore) {
  const member = (name: string) => ({
    name,
    instructions: `You are ${name}.`,
    model: new ScriptedModel({ respond: (request) => ({ text: long(name, request.messages.length) }) }),
  });
  return new Team({
    name: 'chat',
    members: [member('writer'), member('critic')],
    topology: groupChat(),
    termination: maxTurns(4),
    store,
  });
}

describe('team turn texts in the journal (ADR 0047)', () => {
  it('a turn text is saved once, with the transcript; events, the description and the output still carry it', async () => {
    const store = new MemoryRunStore();
    const result = await chat(store).run({ sessionId: 's', input: 'Write' }).result();
    const texts = (result.output?.transcript ?? []).map((message) => message.text);
    expect(texts).toHaveLength(4);

    // Saved: each turn's event names its turn and speaker; its text is in the transcript write only.
    const journal = await store.readJournal(result.runId);
    const saved = journal.flatMap((entry) =>
      entry.type === 'task-finished' ? ((entry.data as { writes: [string, unknown][] }).writes ?? []) : [],
    );
    const turnEvents = saved
      .filter(([channel]) => channel === 'teamEvents')
      .flatMap(([, events]) => events as { type: string; text?: string }[])
      .filter((event) => event.type === 'team-turn');
    expect(turnEvents).toHaveLength(4);
    expect(turnEvents.every((event) => event.text === undefined)).toBe(true);
    // Each text is saved in its transcript write and in the run's output (the last one is the answer too).
    for (const text of texts.slice(0, -1)) expect(JSON.stringify(journal).split(text).length - 1).toBe(2);

    // Read back: every reader gets the whole event.
    const client = new RunClient({ store });
    const events = await client.readEvents(result.runId);
    expect(events.filter((event) => event.type === 'team-turn').map((event) => (event as { text: string }).text)).toEqual(texts);
    const described = await client.describeRun(result.runId);
    expect(
      described.team?.events.filter((event) => event.type === 'team-turn').map((event) => (event as { text: string }).text),
    ).toEqual(texts);
  });

  it('leaves an event whole when no single transcript message of the same writes says the same', () => {
    const event = { type: 'team-turn', turn: 2, speaker: 'voter', text: 'yes' };
    const other: [string, unknown][] = [
      ['transcript', [{ turn: 2, speaker: 'voter', text: 'I vote yes' }]],
      ['teamEvents', [event]],
    ];
    expect(compactTeamTurnTexts(other)).toBe(other);
    const twice: [string, unknown][] = [
      [
        'transcript',
        [
          { turn: 2, speaker: 'voter', text: 'yes' },
          { turn: 2, speaker: 'voter', text: 'yes' },
        ],
      ],
      ['teamEvents', [event]],
    ];
    expect(compactTeamTurnTexts(twice)).toBe(twice);
    const noTranscript: [string, unknown][] = [['teamEvents', [event]]];
    expect(compactTeamTurnTexts(noTranscript)).toBe(noTranscript);
  });

  it("restores an embedded team's texts from its prefixed transcript, and reads older journals as they are", () => {
    const written: [string, unknown][] = [
      ['review.transcript', [{ turn: 1, speaker: 'critic', text: 'fine' }]],
      [
        'teamEvents',
        [
          { type: 'speaker-selected', turn: 1, speaker: 'critic', by: 'owner' },
          { type: 'team-turn', turn: 1, speaker: 'critic', text: 'fine' },
        ],
      ],
    ];
    const saved = compactTeamTurnTexts(written);
    expect(saved).not.toBe(written);
    expect(saved[1]?.[1]).toEqual([
      { type: 'speaker-selected', turn: 1, speaker: 'critic', by: 'owner' },
      { type: 'team-turn', turn: 1, speaker: 'critic' },
    ]);
    // The writes the task made are not changed: only the saved copy is.
    expect(written[1]?.[1]).toContainEqual({ type: 'team-turn', turn: 1, speaker: 'critic', text: 'fine' });
    expect(restoreTeamTurnTexts(saved)).toEqual(written);
    // A journal saved before the compaction has its texts: read as it is.
    expect(restoreTeamTurnTexts(written)).toBe(written);
  });
});
