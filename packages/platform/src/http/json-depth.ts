import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';
import type { PlatformEnvironment } from './services.js';

/**
 * The deepest nesting of arrays and objects a JSON body may have (P-15.4). Real bodies (drafts,
 * JSON Schemas of tool parameters, workflow graphs, run input) stay far below it; code that walks
 * a value recursively (`canonicalJson`, the SDK's schema checks) is safe at this depth.
 */
export const maximumJsonDepth = 64;

/** The media types Hono's JSON validator reads (`application/json`, `application/*+json`). */
const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

/**
 * Whether the JSON text nests deeper than `maximum`. A scan of the text, not of a parsed value:
 * it needs no recursion and no second parse, and stops at the first level too deep. Brackets
 * inside strings do not count; malformed text is left to the parser, which reports it.
 */
export function nestsDeeperThan(text: string, maximum: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index += 1;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth += 1;
      if (depth > maximum) return true;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) depth -= 1;
  }
  return false;
}

/**
 * Refuses a JSON body nested deeper than `maximumJsonDepth` with a typed 422 `json-too-deep`,
 * for every route at once (one place instead of a check per field). It reads the body as text
 * through Hono's body cache, so the route's own validator parses it once, from that cache; a
 * body that cannot be read is left to that validator, which answers as before.
 */
export function limitJsonDepth(maximum = maximumJsonDepth): MiddlewareHandler<PlatformEnvironment> {
  return async (c, next) => {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && jsonMediaType.test(mediaType)) {
      let text: string | undefined;
      try {
        text = await c.req.text();
      } catch {
        text = undefined;
      }
      if (text !== undefined && nestsDeeperThan(text, maximum)) {
        throw new ApiError(422, 'json-too-deep', `The JSON body nests deeper than ${maximum} levels.`, {
          maximumDepth: maximum,
        });
      }
    }
    await next();
  };
}
