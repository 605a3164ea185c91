/** English messages: the offline demo's suggested questions and "Crash the worker" (issue 35). */
export const demoEn = {
  'demo.suggested.ask': 'Ask: {question}',
  'demo.crash.title': 'Crash the worker',
  'demo.crash.explain':
    'Demo space, instance admins: kill the worker process that runs this run (SIGKILL). A fresh worker takes the same run over once its lease ends; saved steps are not redone.',
  'demo.crash.owner': 'Run {runId} is owned by {owner} (epoch {epoch}, lease {live, select, true {live} other {ended}}).',
  'demo.crash.noOwner': 'Run {runId} has no owner right now.',
  'demo.crash.button': 'Crash the worker',
  'demo.crash.failed': 'The worker could not be crashed',
  'demo.crash.killed': 'Killed worker {workerId} (process {pid}). A fresh worker process has started.',
  'demo.crash.waiting': 'Waiting for the lease of the killed worker to end; then the fresh worker takes the run over…',
  'demo.crash.takeover': 'Taken over: the same run {runId} is now owned by {owner} (epoch {epoch}).',
} as const;
