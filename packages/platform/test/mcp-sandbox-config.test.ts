import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConfigurationProblemError, loadConfig } from '../src/config/index.js';

const directory = mkdtempSync(path.join(tmpdir(), 'agentloom-mcp-sandbox-config-'));
const secret = 'a-secret-key-long-enough-for-the-platform-0123';

function problems(environment: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(environment, {}, directory);
    return [];
  } catch (error) {
    return [...(error as ConfigurationProblemError).problems];
  }
}

/** The settings of stdio MCP servers started in a run's sandbox (ADR 0035). */
describe('stdio MCP sandbox settings', () => {
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('default to no extra paths and no network', () => {
    const config = loadConfig({ AGENTLOOM_SECRET_KEY: secret }, {}, directory);
    expect(config.mcpSandboxPaths).toBeUndefined();
    expect(config.mcpSandboxNetwork).toBeUndefined();
  });

  it('read the paths separated by colons and the host network when asked', () => {
    const config = loadConfig(
      {
        AGENTLOOM_SECRET_KEY: secret,
        AGENTLOOM_MCP_SANDBOX_PATHS: '/opt/mcp:/srv/servers',
        AGENTLOOM_MCP_SANDBOX_NETWORK: 'host',
      },
      {},
      directory,
    );
    expect(config.mcpSandboxPaths).toEqual(['/opt/mcp', '/srv/servers']);
    expect(config.mcpSandboxNetwork).toBe('host');
  });

  it('refuse a relative path and an unknown network', () => {
    expect(
      problems({
        AGENTLOOM_SECRET_KEY: secret,
        AGENTLOOM_MCP_SANDBOX_PATHS: '/opt/mcp:servers',
        AGENTLOOM_MCP_SANDBOX_NETWORK: 'bridge',
      }),
    ).toEqual([
      'AGENTLOOM_MCP_SANDBOX_PATHS entry "servers" must be an absolute path.',
      'AGENTLOOM_MCP_SANDBOX_NETWORK "bridge" must be none or host.',
    ]);
  });
});
