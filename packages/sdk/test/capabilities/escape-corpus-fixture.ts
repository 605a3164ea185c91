/**
 * The world the escape corpus attacks: an agent file root with a victim session, another run's
 * temporary directory, the run store file and file checkpoints under `system/`, a host file outside
 * the root, and an attacker session whose work directory holds planted links (symbolic links and
 * hard links pointing out, a link to `/`, a link to `..`, a FIFO). Every secret is a unique token,
 * so any leak shows up in an output.
 */

import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BubblewrapSandbox } from '../../src/sandbox/bubblewrap/index.js';
import { createWorkspace, type Workspace } from '../../src/sandbox/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { sandboxReachableDirectory } from '../helpers/sandbox-directory.js';
import { callTool, toolContext } from './capability-harness.js';

/** Host paths of everything the attacker must not reach. */
export interface CorpusTargets {
  victimFile: string;
  victimDirectory: string;
  otherRunFile: string;
  storeFile: string;
  hostFile: string;
}

/** The prepared world. */
export interface CorpusFixture {
  base: string;
  workspace: Workspace;
  attacker: { sessionId: string; runId: string };
  attackerDirectory: string;
  targets: CorpusTargets;
  /** Every secret, in the forms a leak could take. */
  tokens: string[];
  /** Checksums of every file and link outside the attacker's own directories. */
  snapshot(): Map<string, string>;
}

/** A probe the scripts run: one file operation, its outcome printed as JSON with the errno code. */
const probe = `
import fs from 'node:fs';
import net from 'node:net';
const [operation, target, extra] = process.argv.slice(2);
const done = (outcome) => console.log(JSON.stringify(outcome));
try {
  if (operation === 'connect') {
    const socket = net.connect(Number(target), '127.0.0.1');
    socket.on('connect', () => { done({ ok: true, content: 'connected' }); socket.destroy(); });
    socket.on('error', (error) => done({ ok: false, code: error.code }));
  } else {
    let content = '';
    if (operation === 'read') content = fs.readFileSync(target, 'utf8');
    else if (operation === 'list') content = fs.readdirSync(target).join(',');
    else if (operation === 'write') fs.writeFileSync(target, 'escaped');
    else if (operation === 'link') fs.linkSync(target, extra);
    else if (operation === 'symlink-read') { fs.symlinkSync(target, extra); content = fs.readFileSync(extra, 'utf8'); }
    done({ ok: true, content });
  }
} catch (error) {
  done({ ok: false, code: error.code });
}
`;

const token = (label: string) => `SECRET_${label}_${randomBytes(8).toString('hex')}`;

/** Builds the world; needs a working bubblewrap (the attacker's workspace has a sandbox). */
export async function createCorpusFixture(): Promise<CorpusFixture> {
  const base = sandboxReachableDirectory('agentloom-escape-');
  const root = join(base, 'agent');
  const skills = join(base, 'skills', 'notes-helper');
  mkdirSync(join(skills, 'scripts'), { recursive: true });
  writeFileSync(join(skills, 'SKILL.md'), '---\nname: notes-helper\ndescription: Use when notes need help.\n---\nSECRET-FREE\n');
  const workspace = createWorkspace({
    root,
    persistent: true,
    skills: [{ name: 'notes-helper', directory: skills }],
    sandbox: new BubblewrapSandbox(),
    limits: { commandTimeoutMs: 20_000 },
  });
  const tokens = { victim: token('VICTIM'), run: token('OTHER_RUN'), store: token('STORE'), host: token('HOST') };

  // The run store file, with a secret in a journal entry, closed so that it no longer changes.
  mkdirSync(join(root, 'system'), { recursive: true });
  const storeFile = join(root, 'system', 'runs.db');
  const store = new SqliteRunStore({ path: storeFile });
  await store.acquire({
    runId: 'victim-run',
    sessionId: 'victim',
    ownerId: 'owner',
    leaseMs: 1000,
    deadlineAt: Date.now() + 60_000,
    initialEntries: [{ type: 'run-started', data: { input: tokens.store } }],
  });
  await store.close();

  // The victim session writes its secret twice, so its checkpoint log holds the secret too.
  const victim = toolContext({ sessionId: 'victim', runId: 'victim-run' });
  await callTool(workspace.tools, 'write_file', { path: 'secret.txt', content: 'draft' }, victim);
  await callTool(workspace.tools, 'write_file', { path: 'secret.txt', content: tokens.victim }, victim);
  await callTool(workspace.tools, 'write_file', { path: 'secret.txt', content: tokens.victim }, victim);
  const temporary = createWorkspace({ root, persistent: false });
  await callTool(
    temporary.tools,
    'write_file',
    { path: 'draft.txt', content: tokens.run },
    toolContext({ sessionId: 'other', runId: 'other-run' }),
  );
  const hostFile = join(base, 'host-secret.txt');
  writeFileSync(hostFile, tokens.host);

  const targets: CorpusTargets = {
    victimFile: join(root, 'sessions', 'victim', 'work', 'secret.txt'),
    victimDirectory: join(root, 'sessions', 'victim', 'work'),
    otherRunFile: join(root, 'runs', 'other-run', 'work', 'draft.txt'),
    storeFile,
    hostFile,
  };
  const attacker = { sessionId: 'attacker', runId: 'attack-run' };
  await callTool(workspace.tools, 'write_file', { path: 'probe.mjs', content: probe }, toolContext(attacker));
  const attackerDirectory = workspace.workDirectory(attacker);
  const plant = (name: string, make: (path: string) => void) => make(join(attackerDirectory, name));
  plant('link-secret', (path) => symlinkSync(targets.victimFile, path));
  plant('link-store', (path) => symlinkSync(storeFile, path));
  plant('link-relative', (path) => symlinkSync('../../victim/work/secret.txt', path));
  plant('link-victim-dir', (path) => symlinkSync(targets.victimDirectory, path));
  plant('link-root', (path) => symlinkSync('/', path));
  plant('hard-secret', (path) => linkSync(targets.victimFile, path));
  plant('hard-store', (path) => linkSync(storeFile, path));
  plant('hard-host', (path) => linkSync(hostFile, path));
  plant('nested', (path) => mkdirSync(path));
  plant('nested/up', (path) => symlinkSync('..', path));
  plant('fifo', (path) => execFileSync('mkfifo', [path]));

  const excluded = [attackerDirectory, join(root, 'system', 'checkpoints', 'sessions', 'attacker')];
  const snapshot = () => {
    const entries = new Map<string, string>();
    const walk = (directory: string) => {
      for (const name of readdirSync(directory)) {
        const path = join(directory, name);
        if (excluded.includes(path)) continue;
        const status = lstatSync(path);
        const key = relative(base, path);
        if (status.isSymbolicLink()) entries.set(key, `link ${readlinkSync(path)}`);
        else if (status.isDirectory()) {
          entries.set(key, 'directory');
          walk(path);
        } else entries.set(key, `file ${status.ino} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
      }
    };
    walk(base);
    return entries;
  };
  return {
    base,
    workspace,
    attacker,
    attackerDirectory,
    targets,
    tokens: [...Object.values(tokens), Buffer.from(tokens.victim).toString('base64')],
    snapshot,
  };
}
