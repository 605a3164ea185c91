export { renderIntentSchemas } from './render-intent-schemas.js';
