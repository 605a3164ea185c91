import type { DemoScript } from '../../domain/demo-script.js';

/**
 * What the seeded Demo space holds, as data (issue 35): the scripts of the offline demo model,
 * the prompts of the demo agents (each carries a `(demo:…)` marker its script is chosen by) and
 * the question each app suggests. Kept apart from the seeding code so that the console, the
 * browser test and the docs name the same questions.
 */

/** The demo HTTP tool's name (a tool resource calling the platform's own demo endpoint). */
export const demoLookupTool = 'demo_lookup';

export const demoPrompts = {
  assistant:
    'You are the AgentLoom demo assistant (demo:assistant). Note the question in a file, look the topic up with demo_lookup, then answer from what you found.',
  planner:
    'You are the AgentLoom demo planner (demo:planner). Send the question to the researcher and the critic at once, then join their answers.',
  researcher: 'You research one question with demo_lookup and report the facts (demo:researcher).',
  critic: 'You point out what a reader should check before trusting an answer (demo:critic).',
  writer: 'You are the team writer (demo:writer): draft a short answer to the task.',
  reviewer: 'You are the team reviewer (demo:reviewer): review the draft and approve it.',
} as const;

/** The question each demo app suggests on its page (the console's one-click "Try it"). */
export const demoQuestions = {
  assistant: 'How does AgentLoom survive a crash?',
  planner: 'Should we run our agents on AgentLoom?',
  workflow: 'durable runs',
  team: 'Write one sentence on why runs should survive a crash.',
  router: 'I need a research brief on durable agents',
} as const;

/** How long the assistant "thinks" before its answer: the window in which "Crash the worker" hits it mid-run. */
export const assistantThinkingMs = 12_000;

/** The scripts of the offline demo model in the Demo space (the connection's `demoScripts`). */
export const demoScripts: DemoScript[] = [
  {
    whenSystemContains: '(demo:assistant)',
    steps: [
      {
        text: 'First I note the question in a file.',
        toolCalls: [{ name: 'write_file', arguments: { path: 'question.md', content: '{{input}}' } }],
      },
      { toolCalls: [{ name: demoLookupTool, arguments: { topic: 'durable runs' } }] },
      {
        delayMs: assistantThinkingMs,
        text: "I wrote the question to a file ({{result1}}) and asked the platform's demo endpoint, which said: {{result2}}",
      },
    ],
  },
  {
    whenSystemContains: '(demo:planner)',
    steps: [
      {
        text: 'Researcher and critic in parallel, then I join their answers.',
        toolCalls: [
          { name: 'researcher', arguments: { task: 'Research: {{input}}' } },
          { name: 'critic', arguments: { task: 'Critique: {{input}}' } },
        ],
      },
      { text: 'Both executors answered (one parallel batch, joined).\n- {{result1}}\n- {{result2}}' },
    ],
  },
  {
    whenSystemContains: '(demo:researcher)',
    steps: [{ toolCalls: [{ name: demoLookupTool, arguments: { topic: 'durable runs' } }] }, { text: 'Researcher: {{result1}}' }],
  },
  {
    whenSystemContains: '(demo:critic)',
    steps: [{ delayMs: 500, text: 'Critic: check that a crashed run continues with the same run id and no step redone.' }],
  },
  {
    whenSystemContains: '(demo:writer)',
    steps: [{ text: 'Writer: a run that survives a crash never loses the work it saved.' }],
  },
  { whenSystemContains: '(demo:reviewer)', steps: [{ text: 'Reviewer: clear and true. Approved.' }] },
];

/** The facts the platform's demo endpoint answers with (`POST /api/v1/demo/lookup`). */
export const demoFacts: Record<string, string[]> = {
  'durable runs': [
    'Every step of a run is journaled before it counts.',
    'When a worker dies, another worker takes the same run over after its lease and never redoes a saved step.',
  ],
};
