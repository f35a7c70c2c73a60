/** A watch of one resource in a namespace from a resourceVersion, recording its events until closed. */
import fetch from 'node-fetch';
import type { Side } from './side.ts';
import type { Resource } from './model.ts';

export interface WatchEvent {
  type: string;
  object: unknown;
}

export interface Recording {
  events: WatchEvent[];
  close(): void;
}

export async function recordWatch(
  side: Side,
  resource: Resource,
  resourceVersion: string,
): Promise<Recording> {
  const cluster = side.target.kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('no current cluster');
  const init = await side.target.kubeConfig.applyToFetchOptions({});
  const controller = new AbortController();
  const path = side.pathOf(resource, resource);
  const response = await fetch(
    `${cluster.server}${path}?watch=true&resourceVersion=${resourceVersion}&timeoutSeconds=600`,
    {
      ...init,
      signal: controller.signal as never,
    },
  );
  const events: WatchEvent[] = [];
  let pending = '';
  response.body.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line !== '') {
        const event = JSON.parse(line) as WatchEvent;
        if (event.type !== 'BOOKMARK') events.push(event);
      }
      newline = pending.indexOf('\n');
    }
  });
  response.body.on('error', () => undefined);
  return { events, close: () => controller.abort() };
}
