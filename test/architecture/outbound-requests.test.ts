/**
 * P-15.1: every server-side request of the platform goes through its outbound module
 * (`packages/platform/src/adapters/outbound`), where the egress policy is. The dependency rule
 * (`outbound-requests-through-one-module`) keeps `node:http`, `node:net`, `undici` … out of every
 * other platform file; this test keeps out what no import shows: the global `fetch` (called, or
 * handed on as a value, e.g. as a default) and the other global network clients.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const platformSource = join(root, 'packages', 'platform', 'src');
const outboundModule = join(platformSource, 'adapters', 'outbound');
/** Globals that make a network request. */
const networkGlobals = new Set(['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource']);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return path === outboundModule ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * The places a text uses a global network client: an identifier named like one that is not a
 * property name (`ports.fetch`, `{ fetch: … }`, `fetch?:` are names of the platform's own
 * fields), and `globalThis.fetch` and the like.
 */
function globalNetworkUses(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const uses: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && networkGlobals.has(node.text)) {
      const parent = node.parent;
      const isName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node && !isGlobalObject(parent.expression)) ||
        ((ts.isPropertyAssignment(parent) ||
          ts.isPropertySignature(parent) ||
          ts.isPropertyDeclaration(parent) ||
          ts.isMethodDeclaration(parent) ||
          ts.isMethodSignature(parent)) &&
          parent.name === node) ||
        // `typeof globalThis.fetch`: a type, no request.
        (ts.isQualifiedName(parent) && parent.right === node) ||
        ts.isBindingElement(parent) ||
        (ts.isParameter(parent) && parent.name === node);
      if (!isName) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart());
        uses.push(`${fileName}:${line + 1} ${parent.getText().slice(0, 80)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return uses;
}

function isGlobalObject(expression: ts.Expression): boolean {
  return ts.isIdentifier(expression) && ['globalThis', 'window', 'global', 'self'].includes(expression.text);
}

describe('outbound requests go through one module (P-15.1)', () => {
  it('finds the global fetch however it is used, and not the platform’s own fields named fetch', () => {
    const sample = [
      "const a = await fetch('http://x');",
      'function tool(run: typeof globalThis.fetch = fetch) {}',
      "await globalThis.fetch('http://x');",
      'const socket = new WebSocket(url);',
      'const b = await services.outbound.fetch(url);',
      'serve({ fetch: app.fetch, port: 1 });',
      'interface Ports { fetch: typeof globalThis.fetch; }',
      'const { fetch: outboundFetch } = ports;',
    ].join('\n');
    expect(globalNetworkUses('sample.ts', sample).map((use) => use.split(' ')[0])).toEqual([
      'sample.ts:1',
      'sample.ts:2',
      'sample.ts:3',
      'sample.ts:4',
    ]);
  });

  it('no platform file outside the outbound module uses a global network client', () => {
    const uses = sourceFiles(platformSource).flatMap((path) =>
      globalNetworkUses(relative(root, path), readFileSync(path, 'utf8')),
    );
    expect(uses).toEqual([]);
  });
});
