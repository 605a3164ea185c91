import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the platform that the test can cut: `dropAll()` destroys every open
 * connection (the browser's event stream among them) the way a flaky network would, while new
 * connections keep working, so the console's re-attach is tested against a real dropped stream.
 */
export class DroppingProxy {
  private readonly sockets = new Set<Socket>();
  private readonly server = createServer((client) => {
    const upstream = connect(this.target.port, this.target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => this.note(chunk.toString('latin1')));
    client.pipe(upstream).pipe(client);
  });
  private target = { host: '127.0.0.1', port: 0 };
  /** Every event-stream request that went through, with its path and `Last-Event-ID` header. */
  readonly eventStreamRequests: { path: string; lastEventId?: string }[] = [];

  private note(text: string): void {
    const path = /^GET (\S+\/events\S*) HTTP/.exec(text)?.[1];
    if (!path) return;
    const lastEventId = /\r\nlast-event-id: *(\S+)/i.exec(text)?.[1];
    this.eventStreamRequests.push(lastEventId ? { path, lastEventId } : { path });
  }
  url = '';

  /** Listens on a free port and forwards to `targetUrl` (`http://host:port`). */
  async start(targetUrl: string): Promise<this> {
    const target = new URL(targetUrl);
    this.target = { host: target.hostname, port: Number(target.port) };
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Cuts every open connection. */
  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  close(): Promise<void> {
    this.dropAll();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
