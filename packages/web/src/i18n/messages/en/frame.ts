/** English messages: the frame, sign-in, spaces and lists of apps; statuses shared by every page. */
export const frameEn = {
  // The frame
  'shell.skipToContent': 'Skip to content',
  'shell.space': 'Space',
  'shell.allSpaces': 'All spaces',
  'shell.spaceOption': '{name} ({role})',
  'shell.signOut': 'Sign out',
  'shell.loading': 'Loading…',
  'shell.language': 'Language',
  'shell.documentTitle': '{title} · AgentLoom',
  'space.nav': 'Space',
  'space.notMember': 'You are not a member of this space, or it does not exist.',
  'space.yourRole': 'Your role: {role}',
  'space.section.agents': 'Agents',
  'space.section.workflows': 'Workflows',
  'space.section.connections': 'Model connections',
  'space.section.prompts': 'Prompts',
  'space.section.skills': 'Skills',
  'space.section.httpTools': 'HTTP tools',
  'space.section.mcpServers': 'MCP servers',
  'space.section.hooks': 'Hooks',
  'space.section.members': 'Members',
  'space.section.apiKeys': 'API keys',
  'role.owner': 'owner',
  'role.admin': 'admin',
  'role.editor': 'editor',
  'role.viewer': 'viewer',
  'notFound.title': 'Page not found',
  'notFound.text': 'Nothing lives at this address. <link>Go to your spaces</link>.',

  // Shared components
  'common.name': 'Name',
  'common.description': 'Description',
  'common.published': 'Published',
  'common.yes': 'yes',
  'common.notYet': 'not yet',
  'problem.defaultTitle': 'The server refused this.',

  // Sign-in
  'signIn.title': 'Sign in to AgentLoom',
  'signIn.email': 'Email',
  'signIn.password': 'Password',
  'signIn.emailMissing': 'Enter the email address of your account.',
  'signIn.passwordMissing': 'Enter your password.',
  'signIn.failed': 'Sign-in failed.',
  'signIn.submit': 'Sign in',
  'signIn.submitting': 'Signing in…',
  'signIn.firstStart': "On first start, <code>agentloom serve</code> prints the administrator's password once.",

  // Spaces
  'spaces.title': 'Spaces',
  'spaces.yours': 'Your spaces',
  'spaces.none': 'You are not a member of any space yet. Create one below.',
  'spaces.new': 'New space',
  'spaces.name': 'Space name',
  'spaces.nameMissing': 'Give the space a name.',
  'spaces.create': 'Create space',

  // App lists (agents, workflows)
  'apps.title': '{kind, select, agent {Agents} router {Routers} other {Workflows}}',
  'apps.caption': '{kind, select, agent {Agents} router {Routers} other {Workflows}} of this space',
  'apps.nameColumn': '{kind, select, agent {Agent} router {Router} other {Workflow}}',
  'apps.empty': '{kind, select, agent {No agent yet.} router {No router yet.} other {No workflow yet.}}',
  'apps.new': '{kind, select, agent {New agent} router {New router} other {New workflow}}',
  'apps.create': '{kind, select, agent {Create agent} router {Create router} other {Create workflow}}',
  'apps.nameMissing':
    '{kind, select, agent {Give the agent a name.} router {Give the router a name.} other {Give the workflow a name.}}',
  'apps.count': '{count, plural, =0 {no apps} one {# app} other {# apps}}',
  'agents.mode': 'Mode',
  'agents.mode.react': 'ReAct',
  'agents.mode.planExecutor': 'Plan–Executor',
  'agents.modeLegend': 'Execution mode (cannot be changed later)',
  'agents.mode.reactHint': ' — one agent that thinks and calls tools in a loop.',
  'agents.mode.planExecutorHint': ' — a planner that hands tasks to executor roles.',
  'agents.chat': 'chat',
  'agents.chatWith': 'Chat with {name}',

  // Run statuses and endings
  'status.pending': 'queued',
  'status.running': 'running',
  'status.succeeded': 'succeeded',
  'status.failed': 'failed',
  'status.stopped': 'stopped',
  'status.stopping': 'stopping',
  'status.waiting-input': 'waiting for input',

  // Run log, run view, sessions
  'status.retrying': 'retrying',
  'status.working': 'working',

  // Releases, drafts, hooks list
  'common.version': 'v{version}',

  // Run view details
  'phase.ready': 'ready',
  'phase.calling-model': 'calling the model',
  'phase.in-batch': 'running tool calls',
  'phase.answered': 'answered',
  'phase.finished': 'finished',
} as const;
