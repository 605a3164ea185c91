import type { JournalEntry, NewJournalEntry } from '../../store/run-store.js';

/** A journal record as stored: one of an engine's typed records with its position in the journal. */
export type StoredRecord<Record extends NewJournalEntry> = Record & Omit<JournalEntry, keyof NewJournalEntry>;

/** Reads one engine's journal as its union of typed records (`journalReader`). */
export interface JournalReader<Record extends NewJournalEntry> {
  /** The stored entry as the typed record it is; a `switch` on its `type` narrows its `data`. */
  recordOf(entry: JournalEntry): StoredRecord<Record>;
  /** The first record of `type`, typed; a `type` the union does not have does not compile. */
  find<Type extends Record['type']>(
    journal: readonly JournalEntry[],
    type: Type,
  ): Extract<StoredRecord<Record>, { type: Type }> | undefined;
}

/**
 * The typed reads of an engine's journal, over its union of records. A run store keeps entries as
 * `{ type, taskId?, data }`; every writer of a journal is typed by the same union (`DurableRun`'s
 * commits, an engine's recorder, the host's requests), so reading an entry back as that union is
 * sound, and this is the one place where the store's untyped entry meets it. Reads then switch on
 * `type` and get each record's own `data`, and a misspelt record type fails to compile.
 */
export function journalReader<Record extends NewJournalEntry>(): JournalReader<Record> {
  const recordOf = (entry: JournalEntry) => entry as unknown as StoredRecord<Record>;
  return {
    recordOf,
    find: (journal, type) => {
      const entry = journal.find((candidate) => candidate.type === type);
      return entry ? (recordOf(entry) as Extract<StoredRecord<Record>, { type: typeof type }>) : undefined;
    },
  };
}
