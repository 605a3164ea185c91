/**
 * Where a measurement's CPU went, process by process (issue 34): this process (the API with the
 * bench's client), the platform's worker processes, and the PostgreSQL server's processes when
 * they run on this machine. A throughput ratio alone does not say which process is the ceiling;
 * CPU per run and how busy each process was during the same window does.
 *
 * Read from `/proc/<pid>/stat` (user + system time, in clock ticks of 10 ms: Linux's USER_HZ is
 * 100 on every architecture Node runs on), so Linux only; elsewhere the other processes' figures
 * are missing rather than wrong. A PostgreSQL backend that exits during the window takes its
 * time with it, so the server's figure is a floor.
 */
import { readdirSync, readFileSync } from 'node:fs';

const msPerTick = 10;

/** The fields of `/proc/<pid>/stat` after the command name, or undefined when the process is gone. */
function statFields(pid: number | string): { name: string; fields: string[] } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself hold spaces or parentheses.
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    return { name: text.slice(open + 1, close), fields: text.slice(close + 2).split(' ') };
  } catch {
    return undefined;
  }
}

/** User + system CPU time of a process in ms (`utime` and `stime`, fields 14 and 15 of the stat line). */
function cpuMsOf(fields: string[]): number {
  return (Number(fields[11]) + Number(fields[12])) * msPerTick;
}

/** CPU time (ms) of the given processes now; a process that is gone counts 0. */
function cpuMsOfProcesses(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    const stat = statFields(pid);
    if (stat) total += cpuMsOf(stat.fields);
  }
  return total;
}

/** CPU time (ms) of every process whose command name is `name` now (e.g. `postgres`), per pid. */
function cpuMsByPidNamed(name: string): Map<string, number> {
  const found = new Map<string, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statFields(entry);
    if (stat?.name === name) found.set(entry, cpuMsOf(stat.fields));
  }
  return found;
}

/** One process group's CPU over a window: ms per run and share of one core. */
export interface CpuShare {
  msPerRun: number;
  /** Percent of one core over the window (100 = one core busy all along). */
  busyPercent: number;
}

/** The CPU of one measurement, by process group. */
export interface CpuSplit {
  /** This process: the API, its in-process workers if any, and the bench's client. */
  api: CpuShare;
  /** The worker processes (`undefined` when the row has none). */
  workers?: CpuShare;
  /** The PostgreSQL server's processes on this machine (`undefined` when none were seen). */
  postgres?: CpuShare;
}

/**
 * Runs `work` (which does `runs` runs) and answers its value with the CPU each process group used
 * meanwhile: this process, the worker processes `pids` and, when `postgres` is set, every
 * process called `postgres` on this machine.
 */
export async function withCpuSplit<Value>(
  runs: number,
  pids: readonly number[],
  postgres: boolean,
  work: () => Promise<Value>,
): Promise<{ value: Value; cpu: CpuSplit }> {
  const startedAt = performance.now();
  const api = process.cpuUsage();
  const workers = cpuMsOfProcesses(pids);
  const server = postgres ? cpuMsByPidNamed('postgres') : undefined;
  const value = await work();
  const windowMs = performance.now() - startedAt;
  const used = process.cpuUsage(api);
  const share = (ms: number): CpuShare => ({ msPerRun: ms / runs, busyPercent: (ms / windowMs) * 100 });
  const cpu: CpuSplit = { api: share((used.user + used.system) / 1000) };
  if (pids.length > 0) cpu.workers = share(cpuMsOfProcesses(pids) - workers);
  if (server && server.size > 0) {
    let spent = 0;
    // Backends that started during the window count from zero; those that ended are lost.
    for (const [pid, now] of cpuMsByPidNamed('postgres')) spent += now - (server.get(pid) ?? 0);
    cpu.postgres = share(spent);
  }
  return { value, cpu };
}

/** `1.23 ms (87 %)`, or `—` for a group that was not measured. */
export function formatCpuShare(share: CpuShare | undefined): string {
  return share ? `${share.msPerRun.toFixed(2)} (${share.busyPercent.toFixed(0)} %)` : '—';
}
