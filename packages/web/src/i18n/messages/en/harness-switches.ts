/** English messages: the code orchestration and background executor switches of the agent editor (N-15, N-7, issue 37). */
export const harnessSwitchesEn = {
  'scripts.legend': 'Code-orchestrated tool calls',
  'scripts.enabled': 'Let the model call tools from a script',
  'scripts.hint':
    'The model may write a short JavaScript script that calls this agent’s tools in a loop; only the script’s result enters the context. Each call is checked, journaled and retried like a direct one. Scripts run in a bubblewrap sandbox, so only workers that can isolate take this agent’s runs. Platform default: off.',
  'scripts.maxToolCalls': 'Most tool calls per script',
  'scripts.maxOutputBytes': 'Most bytes a script sends back',
  'scripts.oneMebibyte': '{bytes, number} (1 MiB)',
  'scripts.maxMemoryMegabytes': 'Script memory limit (MiB)',
  'error.sandbox-unavailable': 'This worker cannot isolate the agent’s scripts and commands: bubblewrap does not work here.',
  'executors.background': 'Executor {number, number} runs in the background',
  'executors.backgroundHint':
    'The planner goes on at once; the result arrives as a later input, and a finished task can be resumed by id. Bounded by the run’s budget and stop.',
};
