import { demoLookupTool } from './demo-content.js';

/**
 * The drafts of the Demo space's workflow, team and router (issue 35), apart from the seeding that
 * creates and publishes them (`seed-demo-space.ts`).
 */
/** The demo workflow: look the topic up (tool node), ask both agents in parallel, then ask a person. */
export function demoWorkflowDraft(assistantId: string, plannerId: string, toolId: string) {
  const text = { reducer: 'last-value', schema: { type: 'string' } };
  return {
    definition: {
      formatVersion: 1,
      kind: 'workflow',
      name: 'demo-workflow',
      state: { topic: text, facts: { reducer: 'last-value', schema: {} }, notes: text, brief: text, decision: text },
      nodes: [
        { name: 'lookup', kind: 'capability', tool: demoLookupTool, input: { topic: 'topic' }, output: 'facts' },
        { name: 'assistant', kind: 'agent', agent: 'assistant', input: 'topic', output: 'notes' },
        { name: 'planner', kind: 'agent', agent: 'planner', input: 'topic', output: 'brief' },
        {
          name: 'approve',
          kind: 'input',
          question: 'Publish the brief on {{topic}}?',
          schema: { type: 'string' },
          choices: ['yes', 'no'],
          output: 'decision',
        },
      ],
      edges: [
        { from: 'START', to: 'lookup' },
        { from: 'lookup', to: 'assistant' },
        { from: 'lookup', to: 'planner' },
        { from: ['assistant', 'planner'], to: 'approve' },
        { from: 'approve', to: 'END' },
      ],
      output: ['facts', 'notes', 'brief', 'decision'],
    },
    bindings: {
      agents: { assistant: { appId: assistantId }, planner: { appId: plannerId } },
      tools: { [demoLookupTool]: { resourceId: toolId } },
      mcpServers: {},
    },
    layout: { nodes: {} },
  };
}

/** The demo team: a workflow whose one node is a group chat of the writer and the reviewer. */
export function demoTeamDraft(writerId: string, reviewerId: string) {
  const text = { reducer: 'last-value', schema: { type: 'string' } };
  return {
    definition: {
      formatVersion: 1,
      kind: 'workflow',
      name: 'demo-team',
      state: { task: text, answer: text },
      nodes: [{ name: 'team', kind: 'team', team: 'pair', input: 'task', output: 'answer' }],
      edges: [
        { from: 'START', to: 'team' },
        { from: 'team', to: 'END' },
      ],
      output: ['answer'],
    },
    bindings: {
      agents: {},
      tools: {},
      mcpServers: {},
      teams: {
        pair: {
          topology: { kind: 'group-chat' },
          members: [
            { name: 'writer', appId: writerId },
            { name: 'reviewer', appId: reviewerId },
          ],
          maxTurns: 2,
        },
      },
    },
    layout: { nodes: {} },
  };
}

/** The demo router's catalog: research questions to the assistant, briefs and decisions to the planner. */
export function demoRouterCatalog(assistantId: string, plannerId: string) {
  return {
    formatVersion: 1,
    actions: [
      {
        ref: { kind: 'agent', id: plannerId },
        description: 'Writes a brief with a researcher and a critic',
        examples: ['I need a research brief', 'should we use this'],
        rules: { keywords: ['brief', 'should we'] },
      },
      {
        ref: { kind: 'agent', id: assistantId },
        description: 'Answers a question with a file and the demo lookup tool',
        examples: ['how does it work', 'look this up'],
        rules: { keywords: ['how does', 'look up'] },
      },
    ],
    conversation: { chitChat: { rules: { keywords: ['hello', '你好'] } } },
  };
}
