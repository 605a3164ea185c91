import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryRunStore } from '@agentloom/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { type AssemblyPorts, assembleAgent } from '../src/assembly/index.js';
import { McpConnectionSet } from '../src/assembly/mcp-servers.js';
import { agentDraftSchema } from '../src/domain/agent-draft.js';
import type { AgentReleaseSnapshot } from '../src/domain/release-snapshot.js';

const fileRoot = mkdtempSync(path.join(tmpdir(), 'agentloom-script-sandbox-'));
afterAll(() => rmSync(fileRoot, { recursive: true, force: true }));

/** A ReAct release on the offline demo model whose model may write scripts (code orchestration, N-15). */
function scriptingRelease(): AgentReleaseSnapshot {
  const draft = agentDraftSchema.parse({ execution: { codeOrchestration: { enabled: true, maxToolCalls: 3 } } });
  return {
    schemaVersion: 1,
    kind: 'agent',
    mode: 'react',
    name: 'scripter',
    description: '',
    model: {
      connectionId: 'demo',
      provider: 'offline-demo',
      baseUrl: null,
      settings: { demoFallback: 'No script.' },
      modelId: 'demo-1',
      credential: { connectionId: 'demo' },
    },
    memory: { enabled: false },
    entry: { prompt: { text: 'You script.' }, builtIn: [], tools: [], skills: [] },
    executors: [],
    variables: {},
    execution: draft.execution,
    context: draft.context,
    environment: draft.environment,
    interruptsRunsInProgress: true,
  };
}

/** Assembly ports with nothing to read; `forRun` opens an MCP connection set, as a worker does for a run. */
function ports(forRun: boolean): AssemblyPorts {
  return {
    readResourceVersion: () => Promise.reject(new Error('nothing pinned')),
    readActiveKey: async () => undefined,
    readSecret: async () => undefined,
    resourcesDirectory: path.join(fileRoot, 'resources'),
    fileRoot,
    store: new MemoryRunStore(),
    fetch: () => Promise.reject(new Error('no network in this test')),
    // bubblewrap is "not installed" here: the path names nothing.
    bubblewrap: { executable: path.join(fileRoot, 'no-such-bwrap') },
    ...(forRun ? { mcpConnections: new McpConnectionSet(false) } : {}),
  };
}

/**
 * A release whose model writes scripts on a host where bubblewrap does not work (ADR 0032,
 * NOT-18): the publish dry run still builds it (nothing runs at publish), and a run is refused at
 * its input with the typed code `sandbox-unavailable`, before any model call — never run unisolated.
 */
describe('code orchestration where bubblewrap does not work', () => {
  it('builds for the publish dry run', async () => {
    await expect(assembleAgent(scriptingRelease(), ports(false))).resolves.toBeDefined();
  });

  it('refuses the run with sandbox-unavailable before any model call', async () => {
    const agent = await assembleAgent(scriptingRelease(), ports(true));
    const result = await agent.run({ sessionId: 's', input: 'Write a script.' }).result();
    expect(result.status).toBe('failed');
    expect(result.reason).toBe('blocked');
    expect(result.failure?.code).toBe('sandbox-unavailable');
    expect(result.failure?.message).toContain('no-such-bwrap');
    expect(result.usage.totalTokens ?? 0).toBe(0);
  });
});
