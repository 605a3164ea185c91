import { describe, expect, it } from 'vitest';
import { AnthropicLanguageModel } from './anthropic/anthropic-language-model.js';
import { createLanguageModelFromEnvironment } from './index.js';
import { OpenAICompatibleLanguageModel } from './openai-compatible/openai-compatible-language-model.js';

describe('createLanguageModelFromEnvironment', () => {
  it('returns undefined without a key, so that callers fall back to a ScriptedModel', async () => {
    expect(await createLanguageModelFromEnvironment({ environment: {} })).toBeUndefined();
  });

  it('creates the configured adapter without sending anything', async () => {
    const openai = await createLanguageModelFromEnvironment({
      environment: {
        AGENTLOOM_OPENAI_API_KEY: 'sk-1',
        AGENTLOOM_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        AGENTLOOM_MODEL: 'qwen3',
      },
    });
    expect(openai).toBeInstanceOf(OpenAICompatibleLanguageModel);
    // `openai` names the API flavour (the conventions' `gen_ai.provider.name`), whatever the endpoint.
    expect(openai).toMatchObject({
      specificationVersion: 'v1',
      provider: 'openai',
      modelId: 'qwen3',
      server: { address: '127.0.0.1', port: 9 },
    });
    const anthropic = await createLanguageModelFromEnvironment({
      environment: { AGENTLOOM_ANTHROPIC_API_KEY: 'sk-ant' },
      settings: { thinking: { enabled: true } },
    });
    expect(anthropic).toBeInstanceOf(AnthropicLanguageModel);
    expect(anthropic).toMatchObject({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-6',
      server: { address: 'api.anthropic.com', port: 443 },
    });
  });
});
