/** Messages between the bench and its API server child process. */
import type { ProcessUsage } from './child-process.ts';

export type ServerRequest = { kind: 'clear-log' } | { kind: 'writes' } | { kind: 'usage' } | { kind: 'stop' };

export type ServerReply =
  | { kind: 'ready'; kubeconfig: string }
  | { kind: 'cleared' }
  | { kind: 'writes'; writes: string[] }
  | ({ kind: 'usage' } & ProcessUsage);
