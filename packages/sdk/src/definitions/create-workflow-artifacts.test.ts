import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../capabilities/tools/tool.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { createWorkflow } from './create-workflow.js';
import type { WorkflowDefinition } from './workflow-definition.js';

/** Two capability nodes of one superstep calling a tool that edits a file: declared writers of it, or not. */
function definition(declared: boolean): WorkflowDefinition {
  const artifacts = declared ? { artifacts: { writes: ['report.md'] } } : {};
  return {
    formatVersion: 1,
    kind: 'workflow',
    name: 'editors',
    state: { log: { reducer: 'append', schema: { type: 'string' } } },
    nodes: [
      {
        name: 'intro',
        kind: 'capability',
        tool: 'edit_report',
        input: { part: { value: 'intro' } },
        output: 'log',
        ...artifacts,
      },
      {
        name: 'outro',
        kind: 'capability',
        tool: 'edit_report',
        input: { part: { value: 'outro' } },
        output: 'log',
        ...artifacts,
      },
    ],
    edges: [
      { from: 'START', to: 'intro' },
      { from: 'START', to: 'outro' },
      { from: 'intro', to: 'END' },
      { from: 'outro', to: 'END' },
    ],
    output: ['log'],
  };
}

describe('read and write sets in a workflow definition (seed 004 Q1)', () => {
  it.each([
    [true, 1],
    [false, 2],
  ])('declared writers: %s → at most %i editing the report at once', async (declared, most) => {
    let editing = 0;
    let mostEditing = 0;
    const editReport = tool({
      name: 'edit_report',
      description: 'Edits one part of report.md.',
      parameters: z.object({ part: z.string() }),
      execute: async ({ part }) => {
        editing += 1;
        mostEditing = Math.max(mostEditing, editing);
        await new Promise((resolve) => setTimeout(resolve, 40));
        editing -= 1;
        return part;
      },
    });
    const workflow = createWorkflow(definition(declared), { tools: [editReport], store: new MemoryRunStore() });
    const result = await workflow.run({ sessionId: 's', input: {} }).result();
    expect(result.status).toBe('succeeded');
    expect([...((result.output?.log as string[]) ?? [])].sort()).toEqual(['intro', 'outro']);
    expect(mostEditing).toBe(most);
  });
});
