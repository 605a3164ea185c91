import { describe, expect, it } from 'vitest';
import { InvalidConfigurationError } from '../../core/errors/index.js';
import {
  defaultAnthropicModelId,
  defaultOpenAIModelId,
  readAnthropicEnvironment,
  readOpenAIEnvironment,
  readProviderEnvironment,
} from './provider-environment.js';

const configurationIssues = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    if (InvalidConfigurationError.isInstance(error)) return error.issues.map((issue) => issue.path);
    throw error;
  }
  throw new Error('expected an InvalidConfigurationError');
};

describe('provider environment', () => {
  it('reads nothing when no key is set, empty values included', () => {
    expect(readProviderEnvironment({})).toBeUndefined();
    expect(
      readProviderEnvironment({ AGENTLOOM_OPENAI_API_KEY: '', AGENTLOOM_ANTHROPIC_API_KEY: '  ', AGENTLOOM_MODEL: 'x' }),
    ).toBeUndefined();
  });

  it('reads an OpenAI connection, with the default model only for OpenAI itself', () => {
    expect(readOpenAIEnvironment({ AGENTLOOM_OPENAI_API_KEY: 'sk-1' })).toEqual({
      provider: 'openai-compatible',
      apiKey: 'sk-1',
      modelId: defaultOpenAIModelId,
    });
    expect(
      readOpenAIEnvironment({
        AGENTLOOM_OPENAI_API_KEY: 'sk-1',
        AGENTLOOM_OPENAI_BASE_URL: 'https://api.deepseek.com/v1',
        AGENTLOOM_MODEL: 'deepseek-chat',
      }),
    ).toEqual({
      provider: 'openai-compatible',
      apiKey: 'sk-1',
      baseURL: 'https://api.deepseek.com/v1',
      modelId: 'deepseek-chat',
    });
    expect(
      configurationIssues(() =>
        readOpenAIEnvironment({ AGENTLOOM_OPENAI_API_KEY: 'sk-1', AGENTLOOM_OPENAI_BASE_URL: 'http://localhost:11434/v1' }),
      ),
    ).toEqual(['AGENTLOOM_MODEL']);
  });

  it('reads an Anthropic connection', () => {
    expect(readAnthropicEnvironment({ AGENTLOOM_ANTHROPIC_API_KEY: 'sk-ant' })).toEqual({
      provider: 'anthropic',
      apiKey: 'sk-ant',
      modelId: defaultAnthropicModelId,
    });
    expect(
      readAnthropicEnvironment({
        AGENTLOOM_ANTHROPIC_API_KEY: 'sk-ant',
        AGENTLOOM_ANTHROPIC_BASE_URL: 'https://gateway.example/anthropic',
      }),
    ).toMatchObject({ baseURL: 'https://gateway.example/anthropic' });
    expect(
      configurationIssues(() =>
        readAnthropicEnvironment({ AGENTLOOM_ANTHROPIC_API_KEY: 'k', AGENTLOOM_ANTHROPIC_BASE_URL: 'ftp://x' }),
      ),
    ).toEqual(['AGENTLOOM_ANTHROPIC_BASE_URL']);
  });

  it('chooses between two configured providers with AGENTLOOM_PROVIDER, OpenAI first without it', () => {
    const both = { AGENTLOOM_OPENAI_API_KEY: 'sk-1', AGENTLOOM_ANTHROPIC_API_KEY: 'sk-ant', AGENTLOOM_MODEL: 'some-model' };
    expect(readProviderEnvironment(both)?.provider).toBe('openai-compatible');
    expect(readProviderEnvironment({ ...both, AGENTLOOM_PROVIDER: 'anthropic' })).toMatchObject({
      provider: 'anthropic',
      modelId: 'some-model',
    });
    expect(readProviderEnvironment({ AGENTLOOM_ANTHROPIC_API_KEY: 'sk-ant' })?.provider).toBe('anthropic');
    expect(configurationIssues(() => readProviderEnvironment({ ...both, AGENTLOOM_PROVIDER: 'gemini' }))).toEqual([
      'AGENTLOOM_PROVIDER',
    ]);
    expect(configurationIssues(() => readProviderEnvironment({ AGENTLOOM_PROVIDER: 'anthropic' }))).toEqual([
      'AGENTLOOM_ANTHROPIC_API_KEY',
    ]);
  });
});
