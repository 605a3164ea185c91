import type { Context } from 'hono';
import type { PlatformContext } from '../../application/context.js';
import { authorizeSpace, type SpaceAction } from '../authorization.js';
import type { PlatformEnvironment } from '../services.js';

/** Finds a thing of a space by its id; refuses (not found) when the space has no such thing. */
type FindInSpace<Row> = (context: Pick<PlatformContext, 'database'>, spaceId: string, id: string) => Promise<Row>;

/**
 * The loader of the thing a route's path names below a space (`/spaces/{spaceId}/…/{<idName>}`):
 * it checks that the caller may do `action` in the space, then finds the thing in that space, so
 * a thing of another space is simply not found (no cross-space probing). The ids come from the
 * path, which the route's parameter schema has already checked (`idParameter`).
 */
export function spaceEntityLoader<Row>(
  idName: string,
  find: FindInSpace<Row>,
): (c: Context<PlatformEnvironment>, action: SpaceAction) => Promise<Row> {
  return async (c, action) => {
    const { space } = await authorizeSpace(c, c.req.param('spaceId') ?? '', action);
    return find(c.get('services'), space.id, c.req.param(idName) ?? '');
  };
}
