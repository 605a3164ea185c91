import type { RouteObject } from 'react-router';
import { Navigate } from 'react-router';
import { useT } from '../i18n/index.js';
import { RootLayout } from './root-layout.js';
import { SpaceLayout } from './space-layout.js';

/** Shown while the first page's chunk loads. */
function LoadingPage() {
  const t = useT();
  return <p className="main">{t('shell.loading')}</p>;
}

/**
 * Every page of the console. Pages load lazily, one chunk each, so a page ships only its own
 * code (see `scripts/report-bundle-size.ts`). An agent's run pages (chat, run log, run view,
 * sessions, a session) live under `spaces/:spaceId/agents/:appId/…`; a workflow's editor and
 * releases, run form and runs under `spaces/:spaceId/workflows/:appId/…`.
 */
export const consoleRoutes: RouteObject[] = [
  {
    path: '/sign-in',
    HydrateFallback: LoadingPage,
    lazy: () => import('../pages/sign-in/index.js').then((page) => ({ Component: page.SignInPage })),
  },
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: LoadingPage,
    children: [
      { path: 'spaces', element: <Navigate to="/" replace /> },
      { index: true, lazy: () => import('../pages/spaces/index.js').then((page) => ({ Component: page.SpacesPage })) },
      {
        path: 'spaces/:spaceId',
        Component: SpaceLayout,
        children: [
          { index: true, element: <Navigate to="agents" replace /> },
          { path: 'agents', lazy: () => import('../pages/agents/index.js').then((page) => ({ Component: page.AgentsPage })) },
          {
            path: 'agents/:appId',
            lazy: () => import('../pages/agent-editor/index.js').then((page) => ({ Component: page.AgentEditorPage })),
          },
          {
            path: 'agents/:appId/releases',
            lazy: () => import('../pages/releases/index.js').then((page) => ({ Component: page.ReleasesPage })),
          },
          {
            path: 'agents/:appId/chat',
            lazy: () => import('../pages/chat/index.js').then((page) => ({ Component: page.ChatPage })),
          },
          {
            path: 'agents/:appId/runs',
            lazy: () => import('../pages/run-log/index.js').then((page) => ({ Component: page.RunLogPage })),
          },
          {
            path: 'agents/:appId/runs/:runId',
            lazy: () => import('../pages/run-view/index.js').then((page) => ({ Component: page.RunViewPage })),
          },
          {
            path: 'agents/:appId/sessions',
            lazy: () => import('../pages/sessions/index.js').then((page) => ({ Component: page.SessionsPage })),
          },
          {
            path: 'agents/:appId/sessions/:sessionId',
            lazy: () => import('../pages/session/index.js').then((page) => ({ Component: page.SessionPage })),
          },
          {
            path: 'workflows',
            lazy: () => import('../pages/workflows/index.js').then((page) => ({ Component: page.WorkflowsPage })),
          },
          {
            // The canvas (and @xyflow/react) load only here, never with the chat page.
            path: 'workflows/:appId',
            lazy: () => import('../pages/workflow-editor/index.js').then((page) => ({ Component: page.WorkflowEditorPage })),
          },
          {
            // Running a published workflow; with a run id, its live canvas (a reload re-attaches to it).
            path: 'workflows/:appId/run',
            lazy: () => import('../pages/workflow-run/index.js').then((page) => ({ Component: page.WorkflowRunPage })),
          },
          {
            path: 'workflows/:appId/runs/:runId',
            lazy: () => import('../pages/workflow-run/index.js').then((page) => ({ Component: page.WorkflowRunPage })),
          },
          {
            path: 'workflows/:appId/releases',
            lazy: () => import('../pages/releases/index.js').then((page) => ({ Component: page.ReleasesPage })),
          },
          {
            path: 'routers',
            lazy: () => import('../pages/routers/index.js').then((page) => ({ Component: page.RoutersPage })),
          },
          {
            path: 'routers/:appId',
            lazy: () => import('../pages/router-editor/index.js').then((page) => ({ Component: page.RouterEditorPage })),
          },
          {
            path: 'routers/:appId/chat',
            lazy: () => import('../pages/router-chat/index.js').then((page) => ({ Component: page.RouterChatPage })),
          },
          {
            path: 'routers/:appId/releases',
            lazy: () => import('../pages/releases/index.js').then((page) => ({ Component: page.ReleasesPage })),
          },
          {
            path: 'connections',
            lazy: () => import('../pages/connections/index.js').then((page) => ({ Component: page.ConnectionsPage })),
          },
          { path: 'prompts', lazy: () => import('../pages/prompts/index.js').then((page) => ({ Component: page.PromptsPage })) },
          { path: 'skills', lazy: () => import('../pages/skills/index.js').then((page) => ({ Component: page.SkillsPage })) },
          {
            path: 'http-tools',
            lazy: () => import('../pages/http-tools/index.js').then((page) => ({ Component: page.HttpToolsPage })),
          },
          {
            path: 'mcp-servers',
            lazy: () => import('../pages/mcp-servers/index.js').then((page) => ({ Component: page.McpServersPage })),
          },
          {
            path: 'remote-agents',
            lazy: () => import('../pages/remote-agents/index.js').then((page) => ({ Component: page.RemoteAgentsPage })),
          },
          { path: 'hooks', lazy: () => import('../pages/hooks/index.js').then((page) => ({ Component: page.HooksPage })) },
          { path: 'members', lazy: () => import('../pages/members/index.js').then((page) => ({ Component: page.MembersPage })) },
          {
            path: 'api-keys',
            lazy: () => import('../pages/api-keys/index.js').then((page) => ({ Component: page.ApiKeysPage })),
          },
        ],
      },
      { path: '*', lazy: () => import('../pages/not-found/index.js').then((page) => ({ Component: page.NotFoundPage })) },
    ],
  },
];
