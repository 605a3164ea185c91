import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportOpenApiDocument } from '../scripts/api-types.js';
import { agentProgressHandlers } from '../src/runs/agent-progress.js';
import type { Ignored } from '../src/runs/run-events.js';
import { workflowProgressHandlers } from '../src/runs/workflow-progress.js';

/**
 * The run contract from the SDK to the browser (issue 30, ADR 0020): the SDK's `runEventSchema`
 * (rendered to `packages/sdk/schemas/run-event.schema.json`, whose staleness the SDK's tests catch,
 * and which fails the SDK's type check when an event type has no schema) is what the platform's
 * OpenAPI document says the event stream carries, and the console names every one of its event
 * types: a handler, or a reason to ignore it.
 */

interface EventUnion {
  oneOf: { properties: { type: { const?: string; enum?: string[] } } }[];
}
const typesOf = (union: EventUnion) => union.oneOf.map((event) => event.properties.type.const ?? event.properties.type.enum?.[0]);

const sdkSchema = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../sdk/schemas/run-event.schema.json', import.meta.url)), 'utf8'),
) as { $defs: { RunEvent: { anyOf: { $ref: string }[] }; AgentRunEvent: EventUnion; WorkflowRunEvent: EventUnion } };
const sdkAgentTypes = typesOf(sdkSchema.$defs.AgentRunEvent);
const sdkWorkflowTypes = typesOf(sdkSchema.$defs.WorkflowRunEvent);

const ignoredReasons = (handlers: Record<string, unknown>) =>
  Object.values(handlers).flatMap((handler) => (typeof handler === 'function' ? [] : [(handler as Ignored).ignored]));

describe('the run contract from the SDK to the console', () => {
  it('has the two engines of the SDK in its schema, neither of them empty', () => {
    expect(sdkSchema.$defs.RunEvent.anyOf.map((option) => option.$ref)).toEqual([
      '#/$defs/AgentRunEvent',
      '#/$defs/WorkflowRunEvent',
    ]);
    expect(sdkAgentTypes.length).toBeGreaterThan(10);
    expect(sdkWorkflowTypes.length).toBeGreaterThan(5);
  });

  it("names every agent event type of the SDK's schema in the console's handler map, and no other", () => {
    expect(Object.keys(agentProgressHandlers).sort()).toEqual([...sdkAgentTypes].sort());
  });

  it("names every workflow event type of the SDK's schema in the console's handler map, and no other", () => {
    expect(Object.keys(workflowProgressHandlers).sort()).toEqual([...sdkWorkflowTypes].sort());
  });

  it('says why for every event type the console ignores', () => {
    for (const reason of [...ignoredReasons(agentProgressHandlers), ...ignoredReasons(workflowProgressHandlers)]) {
      expect(reason.length).toBeGreaterThan(10);
    }
  });

  it("is what the platform's OpenAPI document says its event streams carry", async () => {
    const document = (await exportOpenApiDocument()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const stream = { $ref: '#/components/schemas/RunEvent' };
    expect(document.paths['/runs/{runId}/events']?.get?.responses['200']?.content?.['text/event-stream']?.schema).toEqual(stream);
    expect(document.paths['/apps/{appId}/runs']?.post?.responses['200']?.content?.['text/event-stream']?.schema).toEqual(stream);
    // The SDK's JSON Schema, every definition as it is, its references pointing into the document.
    const asComponents = JSON.parse(JSON.stringify(sdkSchema.$defs).replaceAll('"#/$defs/', '"#/components/schemas/'));
    for (const [name, definition] of Object.entries(asComponents)) expect(document.components.schemas[name]).toEqual(definition);
    expect(typesOf(document.components.schemas.AgentRunEvent as EventUnion)).toEqual(sdkAgentTypes);
    expect(typesOf(document.components.schemas.WorkflowRunEvent as EventUnion)).toEqual(sdkWorkflowTypes);
  });
});
