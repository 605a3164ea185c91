import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { SpaceAction } from '../authorization.js';
import { authorizeSpace } from '../authorization.js';
import { apiRoute, idParameter, jsonResponse } from '../openapi.js';
import type { PlatformEnvironment, PlatformServices } from '../services.js';

/** The path parameters of every route under `/spaces/{spaceId}`. */
export const spaceParameters = z.object({ spaceId: idParameter('spaceId') });

/** What a "list the space's things" route needs: its names, the permission and the loader. */
export interface SpaceListRoute<Key extends string, Item extends z.ZodType> {
  /** The collection's path below the space, e.g. `secrets` for `/spaces/{spaceId}/secrets`. */
  collection: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** The answer's single property, e.g. `secrets` in `{ "secrets": [...] }`. */
  key: Key;
  item: Item;
  /** The space action the caller's role must allow (`authorizeSpace`). */
  permission: SpaceAction;
  load: (services: PlatformServices, spaceId: string) => Promise<z.input<Item>[]>;
}

/**
 * Registers `GET /spaces/{spaceId}/<collection>`: authorise the caller for `permission` in the
 * space (404 for a space it cannot see), then answer `{ <key>: [...] }`. Members, secrets and
 * model connections are listed the same way, so they share this one declaration instead of three
 * copies of it.
 */
export function registerSpaceList<Key extends string, Item extends z.ZodType>(
  app: OpenAPIHono<PlatformEnvironment>,
  route: SpaceListRoute<Key, Item>,
): void {
  const answer = z.object({ [route.key]: z.array(route.item) } as Record<Key, z.ZodArray<Item>>);
  app.openapi(
    apiRoute({
      method: 'get',
      path: `/spaces/{spaceId}/${route.collection}`,
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      description: route.description,
      request: { params: spaceParameters },
      responses: { 200: jsonResponse(`${route.key[0]?.toUpperCase()}${route.key.slice(1)}.`, answer) },
    }),
    async (c) => {
      const { space } = await authorizeSpace(c, c.req.valid('param').spaceId, route.permission);
      const items = await route.load(c.get('services'), space.id);
      // The generic key defeats Hono's inference of the body type; the schema above is the contract.
      return c.json({ [route.key]: items } as never, 200);
    },
  );
}
