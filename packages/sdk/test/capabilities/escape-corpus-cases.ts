/**
 * The escape corpus: every attempt an agent (a model, a script, a file-capable MCP server) might
 * make to reach outside its view — traversal, absolute host paths, `/proc`, symbolic links and
 * hard links planted or made on the spot, another session's or run's files, the run store file,
 * the checkpoints, the skills (read-only) and the host.
 */
import type { CorpusTargets } from './escape-corpus-fixture.js';

/** One attempt, through one channel. */
export type CorpusAttempt =
  | { channel: 'file-tool'; technique: string; tool: string; args: Record<string, unknown> }
  | { channel: 'script'; technique: string; command: string }
  | { channel: 'mcp-filesystem'; technique: string; tool: string; args: Record<string, unknown> };

/** Builds the corpus for the fixture's paths; scripts come first because one of them plants a link. */
export function corpusAttempts(targets: CorpusTargets, listeningPort: number, testPid: number): CorpusAttempt[] {
  const { victimFile, victimDirectory, otherRunFile, storeFile, hostFile } = targets;
  const attempts: CorpusAttempt[] = [];
  const script = (technique: string, operation: string, target: string, extra = '') =>
    attempts.push({
      channel: 'script',
      technique,
      command: `node /work/probe.mjs ${operation} '${target}' ${extra ? `'${extra}'` : ''}`,
    });
  script('absolute', 'read', victimFile);
  script('absolute', 'read', storeFile);
  script('absolute', 'read', hostFile);
  script('absolute', 'read', otherRunFile);
  script('absolute', 'read', '/etc/shadow');
  script('absolute', 'read', '/etc/passwd');
  script('absolute', 'read', '/root/.bashrc');
  script('traversal', 'read', '/work/../sessions/victim/work/secret.txt');
  script('traversal', 'read', `/work/../../../../../..${victimFile}`);
  script('proc', 'read', `/proc/1/root${victimFile}`);
  script('proc', 'read', `/proc/self/root${storeFile}`);
  script('proc', 'read', `/proc/${testPid}/environ`);
  script('proc', 'list', `/proc/${testPid}/root`);
  script('symlink', 'read', '/work/link-secret');
  script('symlink', 'read', '/work/link-relative');
  script('symlink', 'read', '/work/link-store');
  script('symlink', 'read', '/work/link-victim-dir/secret.txt');
  script('symlink', 'read', `/work/link-root${hostFile}`);
  script('symlink', 'symlink-read', victimFile, '/work/planted-by-script');
  script('symlink', 'symlink-read', `/proc/1/root${storeFile}`, '/work/planted-proc-link');
  script('hard-link', 'link', '/skills/notes-helper/SKILL.md', '/work/skill-hard-link');
  script('hard-link', 'link', victimFile, '/work/victim-hard-link');
  script('hard-link', 'link', storeFile, '/work/store-hard-link');
  script('other-session', 'list', victimDirectory);
  script('other-session', 'write', victimFile);
  script('other-session', 'write', `${victimDirectory}/new.txt`);
  script('run-store', 'write', storeFile);
  script('read-only', 'write', '/skills/notes-helper/SKILL.md');
  script('read-only', 'write', '/skills/notes-helper/scripts/new.sh');
  script('read-only', 'write', '/usr/bin/escape');
  script('read-only', 'write', '/escape');
  script('host', 'write', hostFile);
  script('network', 'connect', String(listeningPort));

  const file = (technique: string, tool: string, args: Record<string, unknown>) =>
    attempts.push({ channel: 'file-tool', technique, tool, args });
  const readPaths: [string, string][] = [
    ['traversal', '../../victim/work/secret.txt'],
    ['traversal', '../../../sessions/victim/work/secret.txt'],
    ['traversal', '/work/../../sessions/victim/work/secret.txt'],
    ['traversal', '/work/../sessions/victim/work/secret.txt'],
    ['traversal', '../../../runs/other-run/work/draft.txt'],
    ['traversal', '../../../system/runs.db'],
    ['traversal', '../../../../host-secret.txt'],
    ['traversal', '/skills/notes-helper/../../sessions/victim/work/secret.txt'],
    ['traversal', '/skills/../system/runs.db'],
    ['traversal', 'nested/../../victim/work/secret.txt'],
    ['traversal', './././../victim/work/secret.txt'],
    ['traversal', 'work/../../victim/work/secret.txt'],
    ['absolute', victimFile],
    ['absolute', otherRunFile],
    ['absolute', storeFile],
    ['absolute', hostFile],
    ['absolute', '/sessions/victim/work/secret.txt'],
    ['absolute', '/system/runs.db'],
    ['absolute', '/runs/other-run/work/draft.txt'],
    ['absolute', '/etc/passwd'],
    ['absolute', '/etc/shadow'],
    ['absolute', '/root/.bashrc'],
    ['proc', '/proc/self/environ'],
    ['proc', `/proc/self/root${victimFile}`],
    ['proc', '/proc/self/cwd/package.json'],
    ['proc', '/proc/1/environ'],
    ['proc', '/work/../proc/self/environ'],
    ['symlink', 'link-secret'],
    ['symlink', 'link-store'],
    ['symlink', 'link-relative'],
    ['symlink', 'link-victim-dir/secret.txt'],
    ['symlink', 'link-root/etc/passwd'],
    ['symlink', `link-root${storeFile}`],
    ['symlink', 'nested/up/link-secret'],
    ['symlink', 'planted-by-script'],
    ['hard-link', 'hard-secret'],
    ['hard-link', 'hard-store'],
    ['hard-link', 'hard-host'],
    ['special-file', 'fifo'],
    ['invalid', 'secret.txt\0/../../../system/runs.db'],
  ];
  for (const [technique, path] of readPaths) file(technique, 'read_file', { path });
  for (const [technique, path] of [
    ['traversal', '../../victim/work'],
    ['absolute', victimDirectory],
    ['absolute', '/sessions'],
    ['absolute', '/system'],
    ['absolute', '/root'],
    ['proc', '/proc/self'],
    ['symlink', 'link-victim-dir'],
    ['symlink', 'link-root'],
    ['symlink', 'nested/up'],
  ] as const) {
    file(technique, 'list_files', { path });
  }
  for (const [technique, path] of [
    ['traversal', '../..'],
    ['absolute', '/sessions'],
    ['absolute', victimDirectory],
    ['proc', '/proc'],
    ['symlink', 'link-victim-dir'],
    ['symlink', 'link-root'],
  ] as const) {
    file(technique, 'grep_files', { pattern: 'SECRET', path });
  }
  for (const [technique, path] of [
    ['traversal', '../../victim/work/secret.txt'],
    ['traversal', '../../../system/checkpoints/escape.json'],
    ['absolute', victimFile],
    ['absolute', '/sessions/victim/work/new.txt'],
    ['absolute', storeFile],
    ['absolute', '/system/runs.db'],
    ['absolute', hostFile],
    ['absolute', '/etc/cron.d/escape'],
    ['proc', '/proc/self/environ'],
    ['read-only', '/skills/notes-helper/SKILL.md'],
    ['read-only', '/skills/notes-helper/scripts/new.sh'],
    ['symlink', 'link-secret'],
    ['symlink', 'link-victim-dir/new.txt'],
    ['symlink', 'link-root/tmp/escaped.txt'],
    ['symlink', 'nested/up/new.txt'],
    ['hard-link', 'hard-secret'],
    ['hard-link', 'hard-store'],
    ['special-file', 'fifo'],
  ] as const) {
    file(technique, 'write_file', { path, content: 'escaped' });
  }
  for (const [technique, path] of [
    ['traversal', '../../victim/work/secret.txt'],
    ['absolute', victimFile],
    ['absolute', '/system/runs.db'],
    ['read-only', '/skills/notes-helper/SKILL.md'],
    ['symlink', 'link-secret'],
    ['hard-link', 'hard-secret'],
    ['hard-link', 'hard-host'],
  ] as const) {
    file(technique, 'edit_file', { path, oldText: 'SECRET', newText: 'escaped', replaceAll: true });
  }

  const mcp = (technique: string, tool: string, args: Record<string, unknown>) =>
    attempts.push({ channel: 'mcp-filesystem', technique, tool, args });
  for (const [technique, path] of [
    ['absolute', victimFile],
    ['absolute', storeFile],
    ['absolute', hostFile],
    ['absolute', otherRunFile],
    ['absolute', '/etc/passwd'],
    ['traversal', '/work/../sessions/victim/work/secret.txt'],
    ['traversal', `/work/../../../..${victimFile}`],
    ['traversal', '../victim/work/secret.txt'],
    ['proc', '/proc/self/environ'],
    ['proc', `/proc/1/root${victimFile}`],
    ['symlink', '/work/link-secret'],
    ['symlink', '/work/link-relative'],
    ['symlink', '/work/link-victim-dir/secret.txt'],
    ['symlink', '/work/link-root/etc/passwd'],
    ['symlink', '/work/planted-by-script'],
    ['read-only', '/skills/notes-helper/SKILL.md'],
  ] as const) {
    mcp(technique, 'read_text_file', { path });
  }
  for (const [technique, path] of [
    ['absolute', victimDirectory],
    ['absolute', '/'],
    ['proc', '/proc/self'],
    ['symlink', '/work/link-victim-dir'],
  ] as const) {
    mcp(technique, 'list_directory', { path });
  }
  mcp('absolute', 'write_file', { path: victimFile, content: 'escaped' });
  mcp('absolute', 'write_file', { path: storeFile, content: 'escaped' });
  mcp('read-only', 'write_file', { path: '/skills/notes-helper/SKILL.md', content: 'escaped' });
  mcp('symlink', 'write_file', { path: '/work/link-secret', content: 'escaped' });
  mcp('absolute', 'write_file', { path: '/tmp/escape.txt', content: 'escaped' });
  mcp('other-session', 'move_file', { source: '/work/probe.mjs', destination: `${victimDirectory}/moved.mjs` });
  mcp('other-session', 'create_directory', { path: `${victimDirectory}/new-directory` });
  mcp('absolute', 'search_files', { path: '/', pattern: 'secret' });
  mcp('run-store', 'get_file_info', { path: storeFile });
  mcp('absolute', 'directory_tree', { path: '/sessions' });
  return attempts;
}
