export type { CommandGenerator, CommandGeneratorRequest, GeneratorAction } from './command-generator.js';
export { buildGeneratorRequest, validateGeneratorOutput } from './model-layer.js';
