export {
  type CompiledJsonSchema,
  compileJsonSchema,
  type JsonSchema,
  type JsonSchemaProblem,
  zodFromJsonSchema,
} from './json-schema-validator.js';
