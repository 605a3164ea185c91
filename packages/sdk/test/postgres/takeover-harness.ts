/**
 * Starts `takeover-child.ts` (bundled) in real processes, collects
 * the JSON lines they report, and lets a test wait for them, signal them and read the run back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresRunStore } from '../../src/store/postgres/index.js';
import { bundledScript } from '../helpers/child-process.js';
import { dropSchema, postgresUrl, postgresUrlWithSchema, uniqueSchemaName } from './postgres-availability.js';

const childScript = join(dirname(fileURLToPath(import.meta.url)), 'takeover-child.ts');

/** One JSON line a child reported. */
export interface ChildEvent {
  event: string;
  [key: string]: unknown;
}

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running child process of the takeover scenario. */
export class TakeoverChild {
  readonly label: string;
  readonly events: ChildEvent[] = [];
  readonly exited: Promise<ChildExit>;
  stderr = '';
  private readonly process: ChildProcess;
  private readonly listeners = new Set<() => void>();
  private exit: ChildExit | undefined;

  constructor(label: string, child: ChildProcess) {
    this.label = label;
    this.process = child;
    let buffer = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffer += chunk;
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.startsWith('{')) this.events.push(JSON.parse(line) as ChildEvent);
        this.notify();
      }
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        this.notify();
        resolve(this.exit);
      });
    });
  }

  /** The events named `event`, in order. */
  named(event: string): ChildEvent[] {
    return this.events.filter((item) => item.event === event);
  }

  /** Waits for the first event (from `from` on) matching `match`; fails if the child exits first. */
  waitFor(match: (event: ChildEvent) => boolean, what: string, from = 0, timeoutMs = 25_000): Promise<ChildEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.events.slice(from).find(match);
        if (found || this.exit) {
          this.listeners.delete(check);
          clearTimeout(timer);
          if (found) resolve(found);
          else reject(new Error(`${this.label} exited (${JSON.stringify(this.exit)}) before ${what}: ${this.describe()}`));
        }
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`${this.label} did not report ${what}: ${this.describe()}`));
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  /** Writes one line to the child's stdin. */
  send(line: string): void {
    this.process.stdin?.write(`${line}\n`);
  }

  /** Sends a signal (SIGSTOP, SIGCONT, SIGKILL). */
  signal(signal: NodeJS.Signals): void {
    this.process.kill(signal);
  }

  /** Kills the child if it still runs (resuming it first, so that a frozen one dies too). */
  async stop(): Promise<void> {
    if (this.exit) return;
    this.process.kill('SIGCONT');
    this.process.kill('SIGKILL');
    await this.exited;
  }

  private describe(): string {
    return `events ${JSON.stringify(this.events)} stderr ${this.stderr}`;
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** What one child process is told. */
export interface TakeoverChildOptions {
  label: string;
  runId: string;
  leaseMs: number;
  waitForGo?: boolean;
  waitOutOwner?: boolean;
}

/** A PostgreSQL schema, a temporary directory and the child processes of one test file. */
export class TakeoverWorld {
  readonly schema = uniqueSchemaName('takeover');
  readonly directory = mkdtempSync(join(tmpdir(), 'agentloom-takeover-'));
  readonly effectsPath = join(this.directory, 'effects.log');
  readonly store = new PostgresRunStore({ connectionString: postgresUrl, schema: this.schema, poolSize: 2 });
  private readonly children: TakeoverChild[] = [];

  async setup(): Promise<void> {
    await this.store.setup();
  }

  /** Starts one child process. */
  start(options: TakeoverChildOptions): TakeoverChild {
    const child = spawn(process.execPath, [bundledScript(childScript)], {
      env: {
        ...process.env,
        TAKEOVER_STORE: postgresUrlWithSchema(this.schema),
        TAKEOVER_LABEL: options.label,
        TAKEOVER_RUN_ID: options.runId,
        TAKEOVER_LEASE_MS: String(options.leaseMs),
        TAKEOVER_EFFECTS: this.effectsPath,
        TAKEOVER_CONTROL_DIR: this.directory,
        TAKEOVER_WAIT_FOR_GO: options.waitForGo ? '1' : '0',
        TAKEOVER_WAIT_OUT_OWNER: options.waitOutOwner ? '1' : '0',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const handle = new TakeoverChild(options.label, child);
    this.children.push(handle);
    return handle;
  }

  /** Lets the `hold` tool of the child labelled `label` finish. */
  release(label: string): void {
    writeFileSync(join(this.directory, `release-${label}`), '');
  }

  /** Tool executions so far: `{ operationId, tool, attempt, label }`. */
  effects(): Array<{ operationId: string; tool: string; attempt: number; label: string }> {
    if (!existsSync(this.effectsPath)) return [];
    return readFileSync(this.effectsPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [operationId, tool, attempt, label] = line.split(' ') as [string, string, string, string];
        return { operationId, tool, attempt: Number(attempt), label };
      });
  }

  /** Kills leftover children after a test. */
  async stopChildren(): Promise<void> {
    await Promise.all(this.children.splice(0).map((child) => child.stop()));
  }

  /** Kills leftovers, closes the store, drops the schema and the directory. */
  async dispose(): Promise<void> {
    await this.stopChildren();
    await this.store.close();
    await dropSchema(this.schema);
    rmSync(this.directory, { recursive: true, force: true });
  }
}
