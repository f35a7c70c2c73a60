/** The few requests the control plane itself makes, as the admin over mutual TLS. */
import https from 'node:https';
import { readFileSync } from 'node:fs';

export interface AdminCredentials {
  caFile: string;
  certFile: string;
  keyFile: string;
}

export class AdminClient {
  readonly #url: URL;
  readonly #agent: https.Agent;

  constructor(server: string, credentials: AdminCredentials) {
    this.#url = new URL(server);
    this.#agent = new https.Agent({
      ca: readFileSync(credentials.caFile),
      cert: readFileSync(credentials.certFile),
      key: readFileSync(credentials.keyFile),
      keepAlive: true,
    });
  }

  /** Resolves with the status code and parsed body; rejects only on transport errors and timeouts. */
  request(method: string, path: string, body?: unknown): Promise<{ code: number; body: unknown }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = https.request(
        {
          hostname: this.#url.hostname,
          port: this.#url.port,
          path,
          method,
          agent: this.#agent,
          timeout: 10_000,
          headers: {
            Accept: 'application/json',
            ...(payload === undefined
              ? {}
              : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // plain-text answers such as /readyz's "ok"
            }
            resolve({ code: response.statusCode ?? 0, body: parsed });
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error(`${method} ${path} timed out`)));
      request.on('error', reject);
      request.end(payload);
    });
  }

  /** Creates the object; an existing one is left as it is. */
  async ensure(path: string, object: unknown): Promise<void> {
    const { code, body } = await this.request('POST', path, object);
    if (code !== 201 && code !== 409) {
      throw new Error(`POST ${path} answered ${code}: ${JSON.stringify(body).slice(0, 500)}`);
    }
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** /healthz of a component serving with its own self-signed certificate (always allowed anonymously). */
export function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = https.get(
      { hostname: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, timeout: 5_000 },
      (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}
