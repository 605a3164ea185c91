/**
 * The dependency rule (`.dependency-cruiser.cjs`, run by `npm run lint:deps` in CI) fails on a
 * deliberate violation of each of its rules, and passes on the repository as it is. The fixture is
 * a small tree laid out like the repository, written to a temporary directory and checked with the
 * same command and configuration as `npm run lint:deps`.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');
const config = join(root, '.dependency-cruiser.cjs');
const run = promisify(execFile);

/**
 * Each file of the fixture and the rule it breaks (undefined: a file that breaks none). A rule of
 * folder scope names the folder that breaks it (`from`).
 */
const fixture: Array<{ path: string; text: string; breaks?: string; from?: string }> = [
  { path: 'packages/sdk/src/index.ts', text: "export { thing } from './engine/agent/thing.js';\n" },
  { path: 'packages/sdk/src/engine/agent/thing.ts', text: 'export const thing = 1;\nexport type Thing = number;\n' },
  { path: 'packages/sdk/src/engine/workflow/graph.ts', text: 'export const graph = 2;\n' },
  { path: 'packages/sdk/src/definitions/definition.ts', text: 'export const definition = 3;\n' },
  { path: 'packages/sdk/src/sandbox/workspace.ts', text: 'export const workspace = 4;\n' },
  {
    path: 'packages/sdk/src/core/uses-engine.ts',
    text: "import { thing } from '../engine/agent/thing.js';\nexport const a = thing;\n",
    breaks: 'core-is-the-bottom',
  },
  {
    path: 'packages/sdk/src/store/uses-engine.ts',
    text: "import { thing } from '../engine/agent/thing.js';\nexport const b = thing;\n",
    breaks: 'ports-below-engines',
  },
  {
    path: 'packages/sdk/src/telemetry/uses-engine-code.ts',
    text: "import { thing } from '../engine/agent/thing.js';\nexport const c = thing;\n",
    breaks: 'telemetry-observes-types-only',
  },
  {
    path: 'packages/sdk/src/telemetry/uses-engine-types.ts',
    text: "import type { Thing } from '../engine/agent/thing.js';\nexport const d: Thing = 1;\n",
  },
  {
    path: 'packages/sdk/src/capabilities/tools/uses-sandbox.ts',
    text: "import { workspace } from '../../sandbox/workspace.js';\nexport const e = workspace;\n",
    breaks: 'tools-below-sandbox',
  },
  {
    path: 'packages/sdk/src/engine/run/uses-agent.ts',
    text: "import { thing } from '../agent/thing.js';\nexport const f = thing;\n",
    breaks: 'run-driver-below-engines',
  },
  {
    path: 'packages/sdk/src/engine/agent/uses-workflow.ts',
    text: "import { graph } from '../workflow/graph.js';\nexport const g = graph;\n",
    breaks: 'agent-engine-below-workflow-engine',
  },
  {
    path: 'packages/sdk/src/engine/workflow/uses-definitions.ts',
    text: "import { definition } from '../../definitions/definition.js';\nexport const h = definition;\n",
    breaks: 'definitions-on-top',
  },
  {
    path: 'packages/sdk/src/hooks/uses-root.ts',
    text: "import { thing } from '../index.js';\nexport const i = thing;\n",
    breaks: 'nothing-imports-the-root',
  },
  {
    path: 'packages/sdk/src/model/cycle-a.ts',
    text: "import { k } from './cycle-b.js';\nexport const j = () => k;\n",
    breaks: 'no-runtime-cycles',
  },
  { path: 'packages/sdk/src/model/cycle-b.ts', text: "import { j } from './cycle-a.js';\nexport const k = () => j;\n" },
  {
    path: 'packages/sdk/src/model/types-a.ts',
    text: "import type { B } from './types-b.js';\nexport interface A { b?: B }\n",
    breaks: 'no-new-type-only-cycles',
  },
  { path: 'packages/sdk/src/model/types-b.ts', text: "import type { A } from './types-a.js';\nexport interface B { a?: A }\n" },
  {
    path: 'packages/sdk/src/core/uses-example.ts',
    text: "import { main } from '../../../../examples/demo/src/main.js';\nexport const l = main;\n",
    breaks: 'sdk-never-imports-its-users',
  },
  {
    path: 'examples/demo/src/main.ts',
    text: "import { thing } from '../../../packages/sdk/src/index.js';\nexport const main = thing;\n",
  },
  {
    path: 'examples/demo/src/deep.ts',
    text: "import { thing } from '../../../packages/sdk/src/engine/agent/thing.js';\nexport const m = thing;\n",
    breaks: 'public-api-only',
  },
  { path: 'packages/intent/src/index.ts', text: "export { rules } from './layers/rules.js';\n" },
  { path: 'packages/intent/src/layers/rules.ts', text: 'export const rules = 5;\n' },
  {
    path: 'packages/intent/src/uses-sdk.ts',
    text: "import { thing } from '../../sdk/src/index.js';\nexport const o = thing;\n",
    breaks: 'intent-stands-alone',
  },
  {
    path: 'packages/sdk/src/intent/adapter.ts',
    text: "import type { rules } from '../../../intent/src/index.js';\nexport type P = typeof rules;\n",
  },
  {
    path: 'packages/sdk/src/model/uses-intent.ts',
    text: "import { rules } from '../../../intent/src/index.js';\nexport const q = rules;\n",
    breaks: 'sdk-uses-intent-only-in-its-adapter',
  },
  {
    path: 'packages/platform/src/deep-intent.ts',
    text: "import { rules } from '../../intent/src/layers/rules.js';\nexport const r = rules;\n",
    breaks: 'intent-public-api-only',
  },
  {
    path: 'packages/platform/src/webhooks/own-client.ts',
    text: "import { request } from 'node:http';\nexport const o = request;\n",
    breaks: 'outbound-requests-through-one-module',
  },
  {
    path: 'packages/platform/src/adapters/outbound/client.ts',
    text: "import { request } from 'node:https';\nexport const p = request;\n",
  },
  // The platform's zones: http → application → domain, adapters beside, worker beside http.
  { path: 'packages/platform/src/http/app.ts', text: 'export const app = 1;\n' },
  { path: 'packages/platform/src/application/runs/start.ts', text: 'export const start = 2;\n' },
  { path: 'packages/platform/src/adapters/database/schema.ts', text: 'export const schema = 3;\n' },
  { path: 'packages/platform/src/worker/loop.ts', text: 'export const loop = 4;\n' },
  {
    path: 'packages/platform/src/domain/uses-http.ts',
    text: "import { app } from '../http/app.js';\nexport const s = app;\n",
    breaks: 'platform-domain-is-pure',
  },
  {
    path: 'packages/platform/src/domain/uses-adapter.ts',
    text: "import { schema } from '../adapters/database/schema.js';\nexport const t = schema;\n",
    breaks: 'platform-domain-is-pure',
  },
  {
    path: 'packages/platform/src/adapters/database/uses-application.ts',
    text: "import { start } from '../../application/runs/start.js';\nexport const u = start;\n",
    breaks: 'platform-adapters-below-application',
  },
  {
    path: 'packages/platform/src/assembly/uses-database.ts',
    text: "import { schema } from '../adapters/database/schema.js';\nexport const v = schema;\n",
    breaks: 'platform-assembly-has-no-sql',
  },
  {
    path: 'packages/platform/src/application/runs/uses-http.ts',
    text: "import { app } from '../../http/app.js';\nexport const w = app;\n",
    breaks: 'platform-application-below-http',
  },
  {
    path: 'packages/platform/src/worker/uses-http.ts',
    text: "import { app } from '../http/app.js';\nexport const x = app;\n",
    breaks: 'platform-worker-beside-http',
  },
  {
    path: 'packages/platform/src/domain/uses-http-too.ts',
    text: "import type { app } from '../http/app.js';\nexport type Y = typeof app;\n",
    breaks: 'platform-http-is-a-top-layer',
  },
  {
    path: 'packages/platform/src/http/uses-worker.ts',
    text: "import { loop } from '../worker/loop.js';\nexport const z = loop;\n",
    breaks: 'platform-http-never-imports-worker',
  },
  { path: 'packages/platform/src/cli/main.ts', text: "import { app } from '../http/app.js';\nexport const main = app;\n" },
  {
    path: 'packages/platform/src/application/apps/uses-keys.ts',
    text: "import { key } from '../keys/key.js';\nexport const aa = key;\n",
    breaks: 'platform-no-folder-cycles',
    from: 'packages/platform/src/application/apps',
  },
  { path: 'packages/platform/src/application/apps/app.ts', text: 'export const app = 5;\n' },
  {
    path: 'packages/platform/src/application/keys/key.ts',
    text: "import { app } from '../apps/app.js';\nexport const key = app;\n",
  },
  {
    path: 'packages/platform/src/server.ts',
    text: "import { graph } from '@agentloom/sdk/src/engine/workflow/graph.js';\nexport const n = graph;\n",
    breaks: 'not-to-unresolvable',
  },
];

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

interface Violation {
  from: string;
  rule: { name: string };
}

/** Runs the rule on a directory as `npm run lint:deps` does; returns its violations. */
async function check(directory: string, targets: string[]): Promise<Violation[]> {
  const result = await run(depcruise, [...targets, '--config', config, '--output-type', 'json'], {
    cwd: directory,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return (JSON.parse(result.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('the dependency rule', () => {
  it('fails on a deliberate violation of each rule, naming the file that breaks it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'agentloom-dependency-rule-'));
    directories.push(directory);
    for (const file of fixture) {
      mkdirSync(dirname(join(directory, file.path)), { recursive: true });
      writeFileSync(join(directory, file.path), file.text);
    }
    writeFileSync(
      join(directory, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
    );
    const violations = await check(directory, ['packages', 'examples']);
    const found = new Set(violations.map((violation) => `${violation.rule.name} ${violation.from}`));
    for (const file of fixture.filter((candidate) => candidate.breaks)) {
      expect(found, `${file.path} should break ${file.breaks}`).toContain(`${file.breaks} ${file.from ?? file.path}`);
    }
    const clean = fixture.filter((file) => !file.breaks && !file.path.includes('cycle-b') && !file.path.includes('types-b'));
    for (const file of clean) {
      expect(
        violations.filter((violation) => violation.from === file.path).map((violation) => violation.rule.name),
        file.path,
      ).toEqual([]);
    }
  });

  // The whole repository is cruised (every source file parsed): minutes on a busy 2-core host.
  it('passes on the repository', async () => {
    expect(await check(root, ['packages', 'examples', 'bench'])).toEqual([]);
  }, 180_000);
});
