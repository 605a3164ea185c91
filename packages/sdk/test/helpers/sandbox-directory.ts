import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh temporary directory that a sandbox's user can reach. On a root host, bubblewrap runs
 * scripts as an unprivileged user (uid 65534 by default), which must be able to search every
 * directory above a work directory or skill it binds; `mkdtemp` makes mode 0700 directories.
 */
export function sandboxReachableDirectory(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(directory, 0o755);
  return directory;
}
