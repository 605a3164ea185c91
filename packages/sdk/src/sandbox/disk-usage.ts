import { execFile } from 'node:child_process';

/**
 * The bytes allocated on disk by the files below `directories`, counted once each (hard links
 * once, sparse holes not at all, links never followed, other file systems not entered), with
 * `du`. Runs off the event loop; a directory that does not exist counts as empty.
 */
export function diskUsage(directories: readonly string[]): Promise<number> {
  if (directories.length === 0) return Promise.resolve(0);
  return new Promise((resolve, reject) => {
    execFile(
      'du',
      ['-s', '-x', '-B1', '-c', '--', ...directories],
      { env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' }, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        const total = /^(\d+)\s+total$/m.exec(stdout);
        // du exits 1 when a file vanished while it counted (a script deleting files): the total stands.
        if (total) resolve(Number(total[1]));
        else reject(error ?? new Error(`du gave no total: ${stderr}`));
      },
    );
  });
}

/** Watches a command's writable directories and reports when they grow past a quota. */
export interface DiskWatch {
  /** Host directories to measure. */
  directories: readonly string[];
  /** The quota, in allocated bytes. */
  quotaBytes: number;
  /** Pause between two measurements. Default 200 ms. */
  intervalMs?: number;
}

/**
 * Measures the directories until `stop()` is called, calling `onExceeded` once when their usage
 * passes `max(quota, usage at start)`. Measurements never overlap; a failed one is skipped.
 * A command can therefore write at most what it writes during one interval (plus one `du`) past the
 * quota before it is killed; the per-file size limit of the sandbox bounds each single file.
 */
export async function startDiskWatch(watch: DiskWatch, onExceeded: () => void): Promise<{ stop(): void }> {
  const start = await diskUsage(watch.directories).catch(() => 0);
  const limit = Math.max(watch.quotaBytes, start);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const measure = async () => {
    const used = await diskUsage(watch.directories).catch(() => 0);
    if (stopped) return;
    if (used > limit) {
      stopped = true;
      onExceeded();
      return;
    }
    timer = setTimeout(measure, watch.intervalMs ?? 200);
  };
  timer = setTimeout(measure, watch.intervalMs ?? 200);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
