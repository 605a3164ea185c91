import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** What an attempt did with a long-running MCP task. */
export type McpTaskAction = 'created' | 'continued' | 're-executed';

/**
 * The durable link between one logical tool call (its operation id, stable across retries and
 * takeovers) and the MCP task the server runs for it (K-3, N-8). With it a takeover continues the
 * task (`tasks/get`, `tasks/result`) instead of calling the tool again.
 */
export interface McpTaskRecord {
  operationId: string;
  server: string;
  tool: string;
  /** The current task of the operation. */
  taskId: string;
  /** The streamable HTTP session the task was created in; servers often scope tasks to it. */
  mcpSessionId?: string;
  /** Every attempt's action, in order: the correlatable record of the call (K-3). */
  history: { attempt: number; action: McpTaskAction; taskId: string; at: number }[];
}

/** Where task records are kept. Implementations must make `put` durable before it resolves. */
export interface McpTaskLedger {
  get(operationId: string): Promise<McpTaskRecord | undefined>;
  put(record: McpTaskRecord): Promise<void>;
}

/** An in-memory ledger: continues tasks across retries in one process only; a crash loses it. */
export class MemoryMcpTaskLedger implements McpTaskLedger {
  private readonly records = new Map<string, McpTaskRecord>();

  async get(operationId: string): Promise<McpTaskRecord | undefined> {
    const record = this.records.get(operationId);
    return record ? structuredClone(record) : undefined;
  }

  async put(record: McpTaskRecord): Promise<void> {
    this.records.set(record.operationId, structuredClone(record));
  }
}

/**
 * A ledger of one JSON file per operation in a directory (keep it with the system records, outside
 * every work view: `workspace.systemDirectory`). Each write goes to a temporary file that is
 * synced and renamed over the record, so a crash leaves the old or the new record, never half of one.
 */
export class FileMcpTaskLedger implements McpTaskLedger {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  async get(operationId: string): Promise<McpTaskRecord | undefined> {
    try {
      return JSON.parse(await readFile(this.pathOf(operationId), 'utf8')) as McpTaskRecord;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async put(record: McpTaskRecord): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const target = this.pathOf(record.operationId);
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(record));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
    const directory = await open(this.directory, 'r');
    await directory.sync().finally(() => directory.close());
  }

  private pathOf(operationId: string): string {
    return join(this.directory, `${createHash('sha256').update(operationId).digest('hex').slice(0, 40)}.json`);
  }
}
