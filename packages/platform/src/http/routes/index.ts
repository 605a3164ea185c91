import type { OpenAPIHono } from '@hono/zod-openapi';
import type { PlatformEnvironment } from '../services.js';
import { adminRunRoutes } from './admin-run-routes.js';
import { adminWorkerRoutes } from './admin-worker-routes.js';
import { appKeyRoutes, spaceKeyRoutes } from './api-key-routes.js';
import { appA2aRoutes } from './app-a2a-routes.js';
import { appDeletionRoutes } from './app-deletion-routes.js';
import { appRoutes } from './app-routes.js';
import { authRoutes } from './auth-routes.js';
import { connectionRoutes } from './connection-routes.js';
import { connectionTestRoutes } from './connection-test-routes.js';
import { demoRoutes } from './demo-routes.js';
import { draftRoutes } from './draft-routes.js';
import { fileRoutes } from './file-routes.js';
import { mcpSignInRoutes } from './mcp-sign-in-routes.js';
import { memberRoutes } from './member-routes.js';
import { releaseRoutes } from './release-routes.js';
import { remoteAgentRoutes } from './remote-agent-routes.js';
import { resourceRoutes } from './resource-routes.js';
import { resourceTestRoutes } from './resource-test-routes.js';
import { routerRoutes } from './router-routes.js';
import { runElicitationRoutes } from './run-elicitation-routes.js';
import { runInputRoutes } from './run-input-routes.js';
import { runNodeRoutes } from './run-node-routes.js';
import { runRoutes } from './run-routes.js';
import { secretRoutes } from './secret-routes.js';
import { sessionMessageRoutes } from './session-message-routes.js';
import { sessionRoutes } from './session-routes.js';
import { spaceRoutes } from './space-routes.js';
import { userRoutes } from './user-routes.js';
import { webhookRoutes } from './webhook-routes.js';

/** One sub-app per resource, mounted under `/api/v1`. */
export function apiRouteGroups(): OpenAPIHono<PlatformEnvironment>[] {
  return [
    authRoutes(),
    userRoutes(),
    spaceRoutes(),
    memberRoutes(),
    spaceKeyRoutes(),
    connectionRoutes(),
    connectionTestRoutes(),
    secretRoutes(),
    resourceRoutes(),
    resourceTestRoutes(),
    remoteAgentRoutes(),
    mcpSignInRoutes(),
    appRoutes(),
    appDeletionRoutes(),
    draftRoutes(),
    releaseRoutes(),
    appKeyRoutes(),
    appA2aRoutes(),
    fileRoutes(),
    runRoutes(),
    runInputRoutes(),
    runElicitationRoutes(),
    runNodeRoutes(),
    sessionRoutes(),
    sessionMessageRoutes(),
    routerRoutes(),
    webhookRoutes(),
    demoRoutes(),
    adminWorkerRoutes(),
    adminRunRoutes(),
  ];
}
