/**
 * Every TanStack Query key of the console, in one place: a page never writes a key as a string
 * literal, so two pages that read the same data share its cache entry, and a change invalidates
 * exactly what it should. Keys are hierarchical: a shorter key (`apps(spaceId)`) invalidates every
 * longer one under it (`apps(spaceId, 'agent')`).
 */
export const queryKeys = {
  /** The signed-in user and their spaces (`GET /me`). */
  me: () => ['me'] as const,
  /** A space's apps, optionally of one kind. */
  apps: (spaceId: string, kind?: string) =>
    kind === undefined ? (['apps', spaceId] as const) : (['apps', spaceId, kind] as const),
  /** One app (`GET /apps/:appId`). */
  app: (appId: string) => ['app', appId] as const,
  /** An app's draft. */
  draft: (appId: string) => ['draft', appId] as const,
  /** An app's releases, and one of them by version. */
  releases: (appId: string) => ['releases', appId] as const,
  release: (appId: string, version: number | undefined) => ['release', appId, version] as const,
  /** A space's shared resources, of one type or `'all'`. */
  resources: (spaceId: string, type?: string) =>
    type === undefined ? (['resources', spaceId] as const) : (['resources', spaceId, type] as const),
  /** One version of a resource (its content). */
  resourceVersion: (spaceId: string, resourceId: string | undefined, version: number | undefined) =>
    ['resource-version', spaceId, resourceId, version] as const,
  /** The tools an MCP server lists. */
  mcpTools: (spaceId: string, serverId: string | undefined) => ['mcp-tools', spaceId, serverId] as const,
  /** The built-in tools an agent of the space may use. */
  builtInTools: (spaceId: string) => ['built-in-tools', spaceId] as const,
  /** A space's model connections, members and API keys. */
  connections: (spaceId: string) => ['connections', spaceId] as const,
  members: (spaceId: string) => ['members', spaceId] as const,
  spaceKeys: (spaceId: string) => ['space-keys', spaceId] as const,
  /** A run's row (`GET /runs/:id`); `ended` makes a fresh entry once the stream says the run ended. */
  run: (runId: string | undefined, ended?: boolean) =>
    ended === undefined ? (['run', runId] as const) : (['run', runId, ended] as const),
  /** A run as any process sees it (`GET /runs/:id/view`), and an agent task's inner run of a workflow run. */
  runView: (runId: string | undefined) => ['run-view', runId] as const,
  agentView: (runId: string, taskId: string) => ['agent-view', runId, taskId] as const,
  /** An app's run log, by status filter and whether debug runs are listed. */
  runLog: (appId: string, status: string, withDebugRuns: boolean) => ['run-log', appId, status, withDebugRuns] as const,
  /** An app's sessions, one session with its runs, and a session's history. */
  sessions: (appId: string) => ['sessions', appId] as const,
  session: (sessionId: string | undefined) => ['session', sessionId] as const,
  sessionHistory: (sessionId: string | undefined) => ['session-history', sessionId] as const,
};
