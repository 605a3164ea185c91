import { describe, expect, it } from 'vitest';
import { WorkspaceAccessError } from './sandbox-errors.js';
import { type MountBinding, resolveVirtualPath, type WorkspaceView } from './workspace-view.js';

const mount = (kind: MountBinding['kind'], virtualPath: string, writable: boolean): MountBinding => ({
  kind,
  virtualPath,
  base: '/host',
  baseSegments: [],
  writable,
});
const view: WorkspaceView = {
  scope: { sessionId: 's', runId: 'r' },
  mounts: [mount('work', '/work', true), mount('skill', '/skills/pdf', false), mount('mount', '/mounts/data', false)],
};

describe('resolveVirtualPath (F-2)', () => {
  it.each([
    ['notes.md', '/work', ['notes.md']],
    ['./a/../b.md', '/work', ['b.md']],
    ['/work/x/./y', '/work', ['x', 'y']],
    ['/work/../skills/pdf/SKILL.md', '/skills/pdf', ['SKILL.md']],
    ['/mounts/data', '/mounts/data', []],
    ['..\\..\\etc', '/work', ['..\\..\\etc']],
  ])('resolves %s inside %s', (input, mountPath, segments) => {
    const resolved = resolveVirtualPath(view, input);
    expect(resolved).toMatchObject({ kind: 'entry', segments });
    expect(resolved.kind === 'entry' && resolved.mount.virtualPath).toBe(mountPath);
  });

  it('lists the virtual directories above the mounts', () => {
    expect(resolveVirtualPath(view, '/')).toEqual({
      kind: 'mount-directory',
      virtualPath: '/',
      entries: ['mounts', 'skills', 'work'],
    });
    expect(resolveVirtualPath(view, '/skills/')).toMatchObject({ entries: ['pdf'] });
  });

  it.each([
    ['../x', 'outside-view'],
    ['/work/../../etc/passwd', 'outside-view'],
    ['/etc/passwd', 'outside-view'],
    ['/skills/other/SKILL.md', 'outside-view'],
    ['/workspace/x', 'outside-view'],
    ['', 'invalid-path'],
    ['a\0b', 'invalid-path'],
    [`${'x'.repeat(256)}`, 'invalid-path'],
  ])('refuses %j (%s)', (input, reason) => {
    expect(() => resolveVirtualPath(view, input)).toThrow(WorkspaceAccessError);
    try {
      resolveVirtualPath(view, input);
    } catch (error) {
      expect((error as WorkspaceAccessError).reason).toBe(reason);
    }
  });
});
