import { type ChildProcess, fork } from 'node:child_process';
import type { Logger } from 'pino';
import type { WorkerProcessControl, WorkerProcessOwner } from '../application/runs/worker-process-control.js';
import type { JournalWrites } from './journal-write-relay.js';

export type { WorkerProcessControl, WorkerProcessOwner };

/** What a worker child process tells its supervisor over the IPC channel. */
export type WorkerChildMessage =
  | { type: 'ready'; workerId: string }
  | { type: 'run-started'; runId: string; ownerId: string }
  | { type: 'run-ended'; runId: string }
  /** Journal writes it committed (`relayJournalWrites`, ADR 0048). */
  | { type: 'journal-writes'; writes: JournalWrites };

/** What the supervisor tells its worker child: jobs were enqueued here (claim now, issue 34). */
export type WorkerParentMessage = { type: 'jobs' };

/** Options of a `WorkerSupervisor`. */
export interface WorkerSupervisorOptions {
  /** The `agentloom` command line script to fork (the serving process's own). */
  script: string;
  /** Its arguments: `worker --embedded-child …`. */
  args: readonly string[];
  /** Node options of the child (the serving process's, so a development `--import tsx` carries over). */
  execArgv?: readonly string[];
  logger: Logger;
  /** Each line the worker prints, for the serving process's own output. */
  onLine?: (line: string) => void;
  /**
   * This process's job announcements (`Dispatcher.watchJobs`): each is passed to the child over
   * IPC, so that its workers claim a new run at once instead of at their idle poll.
   */
  watchJobs?: (listener: () => void) => () => void;
  /** The child's journal writes (`receiveJournalWrites`): this process's followers of those runs wake at once. */
  onJournalWrites?: ((writes: JournalWrites) => void) | undefined;
}

/**
 * Runs the embedded default's worker in a child process and keeps one running (ADR 0034): it
 * forks `agentloom worker --embedded-child`, learns from it over IPC which runs it executes, and
 * starts a fresh child whenever one exits — after a SIGKILL from "Crash the worker" too. The
 * HTTP server lives in the parent, so killing the worker kills no request; the fresh worker
 * claims the dead one's runs once their leases end and the SDK resumes each from its journal.
 */
export class WorkerSupervisor implements WorkerProcessControl {
  private child: ChildProcess | undefined;
  private workerId: string | undefined;
  private readonly runs = new Set<string>();
  private stopping = false;
  /** How many worker processes have been started (1 + restarts). */
  generation = 0;

  constructor(private readonly options: WorkerSupervisorOptions) {}

  private unwatchJobs: (() => void) | undefined;
  private jobsPending = false;

  /** Forks the first worker. */
  start(): void {
    this.unwatchJobs = this.options.watchJobs?.(() => this.forwardJobs());
    this.spawn();
  }

  /** Tells the child that jobs were enqueued; announcements in one turn of the event loop make one message. */
  private forwardJobs(): void {
    if (this.jobsPending) return;
    this.jobsPending = true;
    setImmediate(() => {
      this.jobsPending = false;
      const child = this.child;
      if (child?.connected) child.send({ type: 'jobs' } satisfies WorkerParentMessage, () => {});
    });
  }

  private spawn(): void {
    this.generation += 1;
    this.runs.clear();
    this.workerId = undefined;
    const child = fork(this.options.script, [...this.options.args], {
      execArgv: [...(this.options.execArgv ?? [])],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    const forward = (chunk: Buffer) => {
      for (const line of String(chunk).split('\n')) if (line.length > 0) this.options.onLine?.(line);
    };
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
    child.on('message', (message: WorkerChildMessage) => {
      if (child !== this.child) return;
      if (message.type === 'ready') this.workerId = message.workerId;
      else if (message.type === 'run-started') this.runs.add(message.runId);
      else if (message.type === 'run-ended') this.runs.delete(message.runId);
      else if (message.type === 'journal-writes') this.options.onJournalWrites?.(message.writes);
    });
    child.on('exit', (code, signal) => {
      if (child !== this.child) return;
      this.child = undefined;
      this.runs.clear();
      if (this.stopping) return;
      this.options.logger.warn({ code, signal, pid: child.pid }, 'the worker process ended; starting a fresh one');
      this.spawn();
    });
  }

  ownerOf(runId: string): WorkerProcessOwner | undefined {
    const child = this.child;
    if (!child?.pid || !this.workerId || !this.runs.has(runId)) return undefined;
    return { workerId: this.workerId, pid: child.pid };
  }

  crashOwnerOf(runId: string): WorkerProcessOwner | undefined {
    const owner = this.ownerOf(runId);
    if (!owner) return undefined;
    this.options.logger.warn({ runId, ...owner }, 'crash the worker: SIGKILL');
    process.kill(owner.pid, 'SIGKILL');
    return owner;
  }

  /** Stops the worker (SIGTERM: it drains) and starts no other; resolves once it exited. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unwatchJobs?.();
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
