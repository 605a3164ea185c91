export { cosine, type Embedder } from './embedder.js';
export { createHashingEmbedder, type HashingEmbedderOptions } from './hashing-embedder.js';
export { createOpenAICompatibleEmbedder, type OpenAICompatibleEmbedderOptions } from './openai-compatible-embedder.js';
