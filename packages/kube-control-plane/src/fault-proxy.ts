/**
 * A TCP proxy in front of the API server that can cut a client off it, as a network partition does.
 * It moves bytes only (TLS passes through untouched, so the client still verifies the API server's
 * certificate and the server still authenticates the client).
 *
 * The model of a partition:
 * - partition(): no byte moves in either direction. Bytes that arrive on either side are kept, in
 *   order; connections opened meanwhile are accepted and held, not connected upstream (the API
 *   server sees nothing of them).
 * - heal(): on every connection whose client is still open, what was kept is delivered (to the API
 *   server first connecting a held connection) and bytes flow again; an end or reset of the API
 *   server's side during the partition reaches the client after its bytes.
 * - A connection the client ended or reset during the partition is dropped at heal, with whatever it
 *   sent: a request the client cut off (a timeout, an abort) is never delivered later. A real
 *   network would deliver nothing of it either once the client's side is gone.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface FaultProxy {
  /** 127.0.0.1 */
  readonly host: string;
  readonly port: number;
  /** Where the proxy forwards to. */
  readonly target: { host: string; port: number };
  readonly partitioned: boolean;
  partition(): void;
  heal(): void;
  /** Open connections, and the bytes kept during the current partition (both directions). */
  stats(): { connections: number; heldBytes: number };
  /** Stops listening and destroys every connection. */
  close(): Promise<void>;
}

class Link {
  readonly #client: Socket;
  readonly #target: { host: string; port: number };
  readonly #onClosed: () => void;
  #upstream: Socket | undefined;
  /** Kept while partitioned: client → server and server → client. */
  #toServer: Buffer[] = [];
  #toClient: Buffer[] = [];
  #clientGone = false;
  #upstreamEnded = false;
  #upstreamGone = false;
  #closed = false;

  constructor(client: Socket, target: { host: string; port: number }, onClosed: () => void) {
    this.#client = client;
    this.#target = target;
    this.#onClosed = onClosed;
  }

  get heldBytes(): number {
    const sum = (chunks: Buffer[]) => chunks.reduce((total, chunk) => total + chunk.length, 0);
    return sum(this.#toServer) + sum(this.#toClient);
  }

  start(partitioned: () => boolean): void {
    const client = this.#client;
    client.on('data', (chunk: Buffer) => {
      if (partitioned() || this.#upstream === undefined) this.#toServer.push(chunk);
      else this.#upstream.write(chunk);
    });
    client.on('end', () => {
      if (partitioned() || this.#upstream === undefined) this.#clientGone = true;
      else this.#upstream.end();
    });
    client.on('error', () => {});
    client.on('close', () => {
      if (partitioned() || this.#upstream === undefined) this.#clientGone = true;
      else this.destroy();
    });
    if (!partitioned()) this.#connectUpstream(partitioned);
  }

  /** Delivers what was kept, or drops the connection when its client left during the partition. */
  heal(partitioned: () => boolean): void {
    if (this.#clientGone) {
      this.destroy();
      return;
    }
    if (this.#upstream === undefined) {
      this.#connectUpstream(partitioned);
      return;
    }
    for (const chunk of this.#toServer.splice(0)) this.#upstream.write(chunk);
    for (const chunk of this.#toClient.splice(0)) this.#client.write(chunk);
    // end(), not destroy(): the kept bytes go out first.
    if (this.#upstreamEnded || this.#upstreamGone) this.#client.end();
  }

  destroy(): void {
    this.#client.destroy();
    this.#upstream?.destroy();
    this.#toServer = [];
    this.#toClient = [];
    if (this.#closed) return;
    this.#closed = true;
    this.#onClosed();
  }

  #connectUpstream(partitioned: () => boolean): void {
    const upstream = connect({ ...this.#target, allowHalfOpen: true });
    this.#upstream = upstream;
    // Written before the connection is up: the socket queues them.
    for (const chunk of this.#toServer.splice(0)) upstream.write(chunk);
    upstream.on('data', (chunk: Buffer) => {
      if (partitioned()) this.#toClient.push(chunk);
      else this.#client.write(chunk);
    });
    upstream.on('end', () => {
      if (partitioned()) this.#upstreamEnded = true;
      else this.#client.end();
    });
    upstream.on('error', () => {});
    upstream.on('close', () => {
      if (partitioned()) this.#upstreamGone = true;
      else this.destroy();
    });
  }
}

/** A proxy on 127.0.0.1 (a port of the kernel's choice) forwarding to `target`. */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const links = new Set<Link>();
  let partitioned = false;
  const isPartitioned = () => partitioned;
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    const link = new Link(client, target, () => links.delete(link));
    links.add(link);
    link.start(isPartitioned);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the fault proxy has no TCP address');
  return {
    host: '127.0.0.1',
    port: address.port,
    target,
    get partitioned() {
      return partitioned;
    },
    partition() {
      partitioned = true;
    },
    heal() {
      if (!partitioned) return;
      partitioned = false;
      for (const link of [...links]) link.heal(isPartitioned);
    },
    stats() {
      let heldBytes = 0;
      for (const link of links) heldBytes += link.heldBytes;
      return { connections: links.size, heldBytes };
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const link of [...links]) link.destroy();
      await closed;
    },
  };
}
