const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether an SSE event type ends a run's stream: an agent run's `run-finish` or a workflow run's `workflow-finish`. */
export const isTerminalEvent = (type: string | undefined) => type === 'run-finish' || type === 'workflow-finish';

/**
 * An SSE client of one run that never gives up: it reads `GET /runs/:id/events`, and whenever its
 * connection ends without its terminal event (`run-finish`, `workflow-finish`; the server was killed) or is dropped on purpose
 * (`reconnect()`, played after each worker kill), it connects again — to the server's current
 * address — with `Last-Event-ID` set to the last id it saw. It keeps every id and event type it
 * received across all connections, so a gap or a duplicate shows when they are compared with one
 * full replay of the run's events.
 */
export class SseFollower {
  readonly ids: number[] = [];
  readonly types: string[] = [];
  /** Connections opened (the first included). */
  connections = 0;
  /** Streams the server closed before the terminal event (a contract breach while the server lives). */
  earlyCloses = 0;
  private abort: AbortController | undefined;
  private readonly done: Promise<void>;

  constructor(
    private readonly baseUrl: () => string,
    private readonly headers: Record<string, string>,
    readonly runId: string,
  ) {
    this.done = this.loop();
  }

  /** Drops the connection; the follower reconnects at once with `Last-Event-ID`. */
  reconnect(): void {
    this.abort?.abort();
  }

  /** Resolves once the terminal event was received. */
  finished(): Promise<void> {
    return this.done;
  }

  private async loop(): Promise<void> {
    while (!isTerminalEvent(this.types.at(-1))) {
      const abort = new AbortController();
      this.abort = abort;
      const last = this.ids.at(-1);
      try {
        const response = await fetch(`${this.baseUrl()}/api/v1/runs/${this.runId}/events`, {
          headers: { ...this.headers, ...(last !== undefined ? { 'last-event-id': String(last) } : {}) },
          signal: abort.signal,
        });
        if (response.status !== 200 || !response.body) throw new Error(`events: ${response.status}`);
        this.connections += 1;
        await this.read(response.body);
        if (!isTerminalEvent(this.types.at(-1))) this.earlyCloses += 1;
      } catch {
        // Dropped on purpose, or the server is down: connect again shortly.
        if (!abort.signal.aborted) await pause(50);
      }
    }
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let boundary = buffer.indexOf('\n\n');
      while (boundary >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const id = /^id: ?(\d+)$/m.exec(block)?.[1];
        if (id !== undefined) {
          this.ids.push(Number(id));
          this.types.push(/^event: ?(.+)$/m.exec(block)?.[1] ?? '');
        }
        boundary = buffer.indexOf('\n\n');
      }
    }
  }
}
