/**
 * The dependency rule of AgentLoom (docs/architecture.md, "Layers"), checked by `npm run lint:deps`
 * (part of `npm run lint`, which CI runs). Each rule says which way imports may not go; a new
 * folder is free until it breaks one of them. Tests (`*.test.ts`, `packages/sdk/test/`, the
 * provider test fixtures) may import any part of the SDK they test, so the layer rules skip them.
 * `test/architecture/dependency-rule.test.ts` shows every rule failing on a deliberate violation.
 */
const sdk = '^packages/sdk/src/';
const tests = ['\\.test\\.ts$', '^packages/sdk/test/', '^packages/sdk/src/providers/testing/'];
/** The SDK's public entry points: its package.json `exports`, and the JSON Schema files. */
const publicEntries = [
  'src/index\\.ts',
  'src/ports/index\\.ts',
  'src/testing/index\\.ts',
  'src/store/sqlite/index\\.ts',
  'src/store/postgres/index\\.ts',
  'src/providers/openai-compatible/index\\.ts',
  'src/providers/anthropic/index\\.ts',
  'src/capabilities/mcp/index\\.ts',
  'src/capabilities/a2a/index\\.ts',
  'src/intent/index\\.ts',
  'schemas/[^/]+\\.json',
];
/** `@agentloom/intent`'s public entry points: its package.json `exports`. */
const intentPublicEntries = ['src/index\\.ts', 'schemas/[^/]+\\.json', 'corpus/[^/]+\\.json'];
/**
 * Modules in a cycle closed by a `import type` (justified in docs/architecture.md): two modules
 * that name each other's types — a workspace and the tools it builds, the run context and the
 * governance it carries, the planner and the state reducer of a workflow superstep.
 */
const acceptedTypeOnlyCycles = [
  `${sdk}sandbox/(workspace|file-tools|command-tool)\\.ts$`,
  `${sdk}engine/workflow/pregel/(plan|workflow-state)\\.ts$`,
];
/**
 * Everything outside the SDK that uses it: the examples, the bench and any future package —
 * except `@agentloom/intent`, which stands alone (it uses nothing of the SDK; the SDK's adapter uses it).
 */
const consumers = '^(examples|bench|packages/(?!sdk/|intent/))';
/**
 * The platform's zones (docs/architecture.md, "Platform core"; ADR 0024): `http` → `application`
 * → `domain`, with `adapters` (and `config`) beside the application, `assembly` between the
 * snapshot and the SDK, `worker` beside `http`, and `cli` with the composition root
 * (`platform.ts`, `index.ts`) on top.
 */
const platform = '^packages/platform/src/';
const zone = (name) => `${platform}${name}/`;
const platformTop = [zone('cli'), `${platform}(platform|index)\\.ts$`];

module.exports = {
  forbidden: [
    {
      name: 'no-runtime-cycles',
      severity: 'error',
      comment: 'No module depends on itself at run time through others (a cycle of value imports).',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-new-type-only-cycles',
      severity: 'error',
      comment:
        'A cycle closed by a type-only import is erased at compile time, but it still ties two modules together: only the ones listed in docs/architecture.md ("The dependency rule") are accepted.',
      from: { pathNot: acceptedTypeOnlyCycles },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'Every import resolves. For a consumer this also refuses `@agentloom/sdk/<internal path>`, which the exports map hides.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'core-is-the-bottom',
      severity: 'error',
      comment: '`core` (errors, messages, failures, ids, JSON Schema) is pure and imports no other part of the SDK.',
      from: { path: `${sdk}core/`, pathNot: tests },
      to: { path: sdk, pathNot: `${sdk}core/` },
    },
    {
      name: 'ports-below-engines',
      severity: 'error',
      comment:
        'Ports and adapters (model, store, capabilities, hooks, sandbox, providers, testing, intent, the `ports` entry point) never import an engine, the definitions or a client built on them.',
      from: { path: `${sdk}(model|store|capabilities|hooks|sandbox|providers|testing|intent|ports)/`, pathNot: tests },
      to: { path: `${sdk}(engine|definitions|client)/` },
    },
    {
      name: 'telemetry-observes-types-only',
      severity: 'error',
      comment:
        'Telemetry turns run events into spans: it may know the event types of the engines (type-only), never their code, since the engines call it.',
      from: { path: `${sdk}telemetry/`, pathNot: tests },
      to: { path: `${sdk}(engine|definitions|client)/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'tools-below-sandbox',
      severity: 'error',
      comment:
        '`capabilities/tools` (tool(), the tool registry) is what the sandbox builds its file tools with; it never imports the sandbox.',
      from: { path: `${sdk}capabilities/tools/`, pathNot: tests },
      to: { path: `${sdk}sandbox/` },
    },
    {
      name: 'run-driver-below-engines',
      severity: 'error',
      comment: '`engine/run` (the durable run, run control) is shared by both engines and imports neither.',
      from: { path: `${sdk}engine/run/`, pathNot: tests },
      to: { path: `${sdk}engine/(agent|workflow)/` },
    },
    {
      name: 'agent-engine-below-workflow-engine',
      severity: 'error',
      comment: 'Workflows call complete agents (D-5); the agent engine never imports the workflow engine.',
      from: { path: `${sdk}engine/agent/`, pathNot: tests },
      to: { path: `${sdk}engine/workflow/` },
    },
    {
      name: 'definitions-on-top',
      severity: 'error',
      comment: 'Definitions build agents and workflows from data; nothing below them imports them.',
      from: { path: sdk, pathNot: [...tests, `${sdk}definitions/`, `${sdk}index\\.ts$`, `${sdk}client/`] },
      to: { path: `${sdk}definitions/` },
    },
    {
      name: 'nothing-imports-the-root',
      severity: 'error',
      comment: '`index.ts` is the public surface; code inside the SDK imports the module it needs, never the root.',
      from: { path: sdk },
      to: { path: `${sdk}index\\.ts$` },
    },
    {
      name: 'public-api-only',
      severity: 'error',
      comment:
        'Examples, the bench and every other package (platform, web) use `@agentloom/sdk` through its public entry points only.',
      from: { path: consumers },
      to: { path: '^packages/sdk/', pathNot: `^packages/sdk/(${publicEntries.join('|')})$` },
    },
    {
      name: 'intent-stands-alone',
      severity: 'error',
      comment:
        '`@agentloom/intent` (N-14) is usable alone: it imports nothing from the SDK or any other package of the workspace. Adapters live on the other side.',
      from: { path: '^packages/intent/' },
      to: { path: '^(packages/(?!intent/)|examples|bench)' },
    },
    {
      name: 'sdk-uses-intent-only-in-its-adapter',
      severity: 'error',
      comment:
        'Inside the SDK only `src/intent/` (the `@agentloom/sdk/intent` adapter of a LanguageModel to the CommandGenerator port) imports `@agentloom/intent`: the engines do not depend on it.',
      from: { path: '^packages/sdk/', pathNot: `${sdk}intent/` },
      to: { path: '^packages/intent/' },
    },
    {
      name: 'intent-public-api-only',
      severity: 'error',
      comment: 'Everything outside `@agentloom/intent` uses it through its public entry points only.',
      from: { pathNot: '^packages/intent/' },
      to: { path: '^packages/intent/', pathNot: `^packages/intent/(${intentPublicEntries.join('|')})$` },
    },
    {
      name: 'outbound-requests-through-one-module',
      severity: 'error',
      comment:
        'P-15.1: every server-side request of the platform goes through `packages/platform/src/adapters/outbound` (the egress policy); no other platform file opens sockets or HTTP clients of its own. (`test/architecture/outbound-requests.test.ts` refuses the global `fetch` there too.)',
      from: { path: '^packages/platform/src/', pathNot: '^packages/platform/src/adapters/outbound/' },
      to: {
        path: '^(node:)?(http|https|http2|net|tls|dgram)$|(^|/)node_modules/undici/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'platform-domain-is-pure',
      severity: 'error',
      comment:
        'The platform domain (drafts, release snapshot schema, resource contents, domain errors) imports nothing of the platform outside `domain/`.',
      from: { path: zone('domain') },
      to: { path: platform, pathNot: zone('domain') },
    },
    {
      name: 'platform-adapters-below-application',
      severity: 'error',
      comment:
        'Adapters (database and repositories, dispatch, outbound, crypto, models, skills, identity) and `config` know the domain, never the use cases, the worker, the assembly, HTTP or the entry points.',
      from: { path: [zone('adapters'), zone('config')] },
      to: { path: [zone('application'), zone('worker'), zone('assembly'), zone('http'), ...platformTop] },
    },
    {
      name: 'platform-assembly-has-no-sql',
      severity: 'error',
      comment:
        '`assembly` turns a release snapshot and ports into SDK agents: it never reads the database or the dispatcher itself, nor uses the layers above.',
      from: { path: zone('assembly') },
      to: {
        path: [
          zone('application'),
          zone('worker'),
          zone('http'),
          zone('adapters/database'),
          zone('adapters/dispatch'),
          ...platformTop,
        ],
      },
    },
    {
      name: 'platform-application-below-http',
      severity: 'error',
      comment:
        'Use cases (`application/`) speak domain errors and their own context, never HTTP; they never import the worker or the entry points either.',
      from: { path: zone('application') },
      to: { path: [zone('http'), zone('worker'), ...platformTop] },
    },
    {
      name: 'platform-worker-beside-http',
      severity: 'error',
      comment: 'The worker (claim loop, sweeper, webhook deliverer) uses the application, never HTTP or the entry points.',
      from: { path: zone('worker') },
      to: { path: [zone('http'), ...platformTop] },
    },
    {
      name: 'platform-http-is-a-top-layer',
      severity: 'error',
      comment: 'Only `cli/` and the composition root import `http/`; HTTP never imports the worker or the CLI.',
      from: { path: platform, pathNot: [zone('http'), ...platformTop] },
      to: { path: zone('http') },
    },
    {
      name: 'platform-http-never-imports-worker',
      severity: 'error',
      comment: 'Routes hand runs to workers through the dispatcher (an adapter), never by importing the worker.',
      from: { path: zone('http') },
      to: { path: [zone('worker'), ...platformTop] },
    },
    {
      name: 'platform-no-folder-cycles',
      severity: 'error',
      comment: 'No two folders of the platform import each other, directly or through others (folder scope).',
      scope: 'folder',
      from: { path: platform },
      to: { path: platform, circular: true },
    },
    {
      name: 'sdk-never-imports-its-users',
      severity: 'error',
      comment: 'The SDK depends on nothing that is built on it.',
      from: { path: '^packages/sdk/' },
      to: { path: consumers },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|__fixtures__)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@agentloom/source', 'import', 'require', 'node', 'default'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
