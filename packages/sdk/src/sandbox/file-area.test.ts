import { link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileArea } from './file-area.js';
import { FileNotFoundError, WorkspaceAccessError } from './sandbox-errors.js';

describe('FileArea: the file tools’ confinement for hosts (F-2)', () => {
  let base: string;
  let area: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'agentloom-file-area-'));
    area = join(base, 'wiki');
    await mkdir(area);
    await writeFile(join(base, 'secret.txt'), 'outside');
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('writes, lists, reads, makes folders and removes them', async () => {
    const files = createFileArea({ directory: area, name: 'wiki', writable: true });
    await files.write('guides/intro.md', Buffer.from('# Hello'));
    await files.makeDirectory('empty');
    expect((await files.list('')).map((entry) => [entry.name, entry.type])).toEqual([
      ['empty', 'directory'],
      ['guides', 'directory'],
    ]);
    expect(await files.list('guides')).toMatchObject([{ name: 'intro.md', type: 'file', size: 7 }]);
    expect((await files.read('guides/intro.md', 1024)).content.toString()).toBe('# Hello');
    expect(await files.stat('guides')).toMatchObject({ type: 'directory' });
    expect(await files.stat('nothing.md')).toBeUndefined();
    expect(await files.usage()).toEqual({ files: 1, directories: 2, bytes: 7 });
    expect(await files.remove('guides')).toBe('directory');
    expect(await files.stat('guides/intro.md')).toBeUndefined();
    await expect(files.remove('guides')).rejects.toSatisfy(FileNotFoundError.isInstance);
  });

  it.each(['../secret.txt', 'a/../../secret.txt', '../../etc/passwd'])('refuses %s as outside the area', async (path) => {
    const files = createFileArea({ directory: area, name: 'wiki', writable: true });
    for (const attempt of [() => files.read(path, 100), () => files.write(path, Buffer.from('x')), () => files.remove(path)]) {
      const refusal = await attempt().catch((error: unknown) => error);
      expect(WorkspaceAccessError.isInstance(refusal) && refusal.reason).toBe('outside-view');
    }
    expect(await readFile(join(base, 'secret.txt'), 'utf8')).toBe('outside');
  });

  it('never follows a link, nor reads a file with another hard link', async () => {
    await symlink(base, join(area, 'escape'));
    await link(join(base, 'secret.txt'), join(area, 'hard.txt'));
    const files = createFileArea({ directory: area, name: 'wiki', writable: true });
    const through = await files.read('escape/secret.txt', 100).catch((error: unknown) => error);
    expect(WorkspaceAccessError.isInstance(through) && through.reason).toBe('symbolic-link');
    const written = await files.write('escape/new.txt', Buffer.from('x')).catch((error: unknown) => error);
    expect(WorkspaceAccessError.isInstance(written) && written.reason).toBe('symbolic-link');
    const hard = await files.read('hard.txt', 100).catch((error: unknown) => error);
    expect(WorkspaceAccessError.isInstance(hard) && hard.reason).toBe('hard-link');
    // Removing the link removes the link, never what it points at.
    await files.remove('escape');
    expect(await readFile(join(base, 'secret.txt'), 'utf8')).toBe('outside');
  });

  it('refuses changes to a read-only area', async () => {
    const files = createFileArea({ directory: area, name: 'session' });
    const refusal = await files.write('a.txt', Buffer.from('x')).catch((error: unknown) => error);
    expect(WorkspaceAccessError.isInstance(refusal) && refusal.reason).toBe('read-only');
  });
});
