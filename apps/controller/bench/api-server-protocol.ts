/** Messages between the bench and its API server child process. */
import type { ProcessUsage } from './child-process.ts';

export type ServerRequest =
  | { kind: 'clear-log' }
  | { kind: 'writes' }
  | { kind: 'request-counts' }
  | { kind: 'usage' }
  | { kind: 'stop' };

export type ServerReply =
  | { kind: 'ready'; kubeconfig: string }
  | { kind: 'cleared' }
  | { kind: 'writes'; writes: string[] }
  /** Requests since the last clear by `METHOD code` (a watch is `WATCH code`). */
  | { kind: 'request-counts'; counts: Record<string, number> }
  | ({ kind: 'usage' } & ProcessUsage);
