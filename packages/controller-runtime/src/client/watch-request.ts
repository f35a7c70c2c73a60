/**
 * One watch request read as it streams: each line of the answer is one event, parsed and handed
 * over at once. Nothing is cached here; the informer's store is the only copy of the objects.
 */
import type http from 'node:http';
import type { KubeObject } from '@scoby/kube-objects';
import { answerError } from './answer-error.ts';

export interface WatchEvent {
  /** ADDED, MODIFIED, DELETED, BOOKMARK or ERROR (whose object is a Status). */
  type: string;
  object: KubeObject;
}

export interface WatchHandlers {
  event(event: WatchEvent): void;
  /** The watch is over: the server ended it (no error), or it failed. Called at most once, never after close(). */
  ended(error?: unknown): void;
  /** The server answered the watch request with 200: events follow. */
  opened?(): void;
}

export interface OpenWatch {
  close(): void;
}

export function readWatch(
  send: (onResponse: (response: http.IncomingMessage) => void) => http.ClientRequest,
  handlers: WatchHandlers,
): OpenWatch {
  let over = false;
  const end = (error?: unknown) => {
    if (over) return;
    over = true;
    request.destroy();
    handlers.ended(error);
  };
  const request = send((response) => {
    const code = response.statusCode ?? 0;
    response.setEncoding('utf8');
    let pending = '';
    if (code !== 200) {
      response.on('data', (chunk: string) => (pending += chunk));
      response.on('end', () => end(answerError(code, pending, response.headers['retry-after'])));
      return;
    }
    handlers.opened?.();
    const handleLine = (line: string) => {
      if (line.trim() === '') return;
      let event: WatchEvent;
      try {
        event = JSON.parse(line) as WatchEvent;
      } catch (error) {
        end(error);
        return;
      }
      handlers.event(event);
    };
    // Lines are cut from each chunk by index: appending chunks to one growing string and searching
    // it again from its start made reading a long burst of events quadratic.
    response.on('data', (chunk: string) => {
      let start = 0;
      for (let newline = chunk.indexOf('\n'); newline >= 0 && !over; newline = chunk.indexOf('\n', start)) {
        const line = chunk.slice(start, newline);
        handleLine(pending === '' ? line : pending + line);
        pending = '';
        start = newline + 1;
      }
      pending += chunk.slice(start);
    });
    response.on('end', () => end());
    // A connection lost mid-answer closes the response before it completed.
    response.on('close', () =>
      end(response.complete ? undefined : new Error('the watch connection was lost')),
    );
  });
  request.on('error', end);
  request.end();
  return {
    close: () => {
      over = true;
      request.destroy();
    },
  };
}
