/** English messages: the harness switches of the agent editor and the model requests of the run view (N-15, issue 37). */
export const contextFeaturesEn = {
  // Model fallback chain
  'fallback.legend': 'Fallback models',
  'fallback.hint':
    'Tried in order when the model fails for good in a way another may not (overloaded, server errors after the retries, a context too long). The switch is saved, so a resumed run stays on the model it moved to.',
  'fallback.connection': 'Fallback {number}: connection',
  'fallback.model': 'Fallback {number}: model',
  'fallback.remove': 'Remove fallback {number}',
  'fallback.add': 'Add a fallback model',
  // Context features
  'contextFeatures.legend': 'What the model sees at the end of the context',
  'contextFeatures.instructions': 'Your instructions',
  'contextFeatures.instructionsHint':
    'Added after the conversation on every request, so the cached part before it stays the same.',
  'contextFeatures.shaping': 'Message shaping',
  'contextFeatures.shaping.none': 'None (as they are)',
  'contextFeatures.shaping.merge': 'Merge same-role messages',
  'contextFeatures.shaping.strict': 'Strict: one system prompt',
  'contextFeatures.shapingHint':
    'Merge joins adjacent messages of one role. Strict also folds entries, instructions and note into the system prompt (one system message, alternating turns); the cached prefix then changes when entries change.',
  'contextFeatures.entryBudget': 'Token budget of the entries',
  'contextFeatures.noBudget': 'no budget',
  // Context entries
  'entries.legend': 'Context entries',
  'entries.hint': 'Text added when it applies: always (constant), or when a keyword or the pattern appears in the last messages.',
  'entries.region': 'Entry {id}',
  'entries.id': 'Entry {number}: name',
  'entries.content': 'Entry {number}: text',
  'entries.constant': 'Always added (constant)',
  'entries.keywords': 'Entry {number}: keywords, comma-separated',
  'entries.pattern': 'Entry {number}: regular expression',
  'entries.scan': 'Entry {number}: messages searched',
  'entries.remove': 'Remove entry {number}',
  'entries.add': 'Add an entry',
  // User commands
  'commands.legend': 'User commands',
  'commands.hint':
    "A run input that starts with /name becomes the stored prompt ('{{args}}' takes the rest). The model never triggers them.",
  'commands.region': 'Command /{name}',
  'commands.name': 'Command {number}: name',
  'commands.description': 'Command {number}: description',
  'commands.prompt': 'Command {number}: prompt',
  'commands.remove': 'Remove command {number}',
  'commands.add': 'Add a command',
  // Memory
  'memory.legend': 'Memory',
  'memory.enabled': 'Remember facts across sessions',
  'memory.hint': 'Gives the agent remember, recall and forget; facts are kept per agent and per user who starts the run.',
  'memory.budget': 'Most characters one recall adds to the context',
  // Run view: model requests
  'requests.heading': 'Model requests',
  'requests.caption':
    'Estimated tokens of each part of every model request, and the hash of the system prefix (system prompt and tools).',
  'requests.none': 'No model request has finished yet.',
  'requests.request': 'Role, loop',
  'requests.model': 'Model',
  'requests.system': 'System',
  'requests.tools': 'Tools',
  'requests.history': 'History',
  'requests.entries': 'Entries',
  'requests.instructions': 'Instructions',
  'requests.note': 'Note',
  'requests.prefix': 'Prefix hash',
  'requests.prefixChanged': 'changed: cache miss',
  'requests.notRecorded': 'not recorded',
} as const;
