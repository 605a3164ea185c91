/**
 * A PostgreSQL cluster of the test's own, started from the server binaries in a temporary
 * directory on a free port, so that a test may restart it, freeze it or kill its connections
 * without touching the shared server other tests (and other people) use. On a root host the
 * cluster runs as the `postgres` user (the server refuses to run as root).
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Where the server binaries are looked for, newest major version first. `AGENTLOOM_POSTGRES_BINARIES`
 * overrides it (a test of the skip path points it at an empty place).
 */
const BINARY_ROOT = process.env.AGENTLOOM_POSTGRES_BINARIES || '/usr/lib/postgresql';

/** The binaries directory of the newest installed server, or why there is none. */
export function findPostgresBinaries(): { directory: string } | { reason: string } {
  if (!existsSync(BINARY_ROOT)) return { reason: `no PostgreSQL server binaries under ${BINARY_ROOT}` };
  const versions = readdirSync(BINARY_ROOT)
    .filter((name) => existsSync(join(BINARY_ROOT, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  const newest = versions[0];
  if (!newest) return { reason: `no initdb under ${BINARY_ROOT}/*/bin` };
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) {
    return { reason: 'running as root and there is no postgres user to run a private cluster as' };
  }
  return { directory: join(BINARY_ROOT, newest, 'bin') };
}

/** A free TCP port on 127.0.0.1 (closed again before it is returned). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A running private cluster. */
export interface PrivatePostgres {
  url: string;
  /** Restarts the server (fast shutdown: every connection is ended), waiting until it answers again. */
  restart(): void;
  /** `restart` without blocking this process's event loop meanwhile. */
  restartAsync(): Promise<void>;
  /** Stops every server process with SIGSTOP: connections stay open but nothing answers. */
  freeze(): void;
  /** Lets a frozen server go on. */
  thaw(): void;
  /** Stops the server and removes its directory. */
  destroy(): void;
}

/** Initialises and starts a private cluster; throws when the binaries cannot be used. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const found = findPostgresBinaries();
  if (!('directory' in found)) throw new Error(found.reason);
  const bin = found.directory;
  const root = mkdtempSync(join(tmpdir(), 'agentloom-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  const asServerUser = (command: string, args: string[]): string[] => {
    if (!asRoot) return [command, ...args];
    return ['runuser', '-u', 'postgres', '--', command, ...args];
  };
  const exec = (command: string, args: string[]) => {
    const [file, ...rest] = asServerUser(command, args);
    return execFileSync(file as string, rest, { stdio: ['ignore', 'pipe', 'pipe'], cwd: root }).toString();
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(root, uid, gid);
  }
  exec(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const pgCtlArgs = (...args: string[]) => ['-D', data, '-l', join(root, 'server.log'), ...args];
  const pgCtl = (...args: string[]) => exec(join(bin, 'pg_ctl'), pgCtlArgs(...args));
  pgCtl('-o', options, '-w', 'start');
  const serverPids = () => {
    const main = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('pgrep', ['-P', String(main)], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .split('\n')
      .filter(Boolean)
      .map(Number);
    return [main, ...children];
  };
  let frozen: number[] = [];
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => {
      pgCtl('-o', options, '-m', 'fast', '-w', 'restart');
    },
    restartAsync: async () => {
      const [file, ...rest] = asServerUser(join(bin, 'pg_ctl'), pgCtlArgs('-o', options, '-m', 'fast', '-w', 'restart'));
      await execFileAsync(file as string, rest, { cwd: root });
    },
    freeze: () => {
      frozen = serverPids();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw: () => {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    destroy: () => {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      try {
        pgCtl('-m', 'immediate', '-w', 'stop');
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
