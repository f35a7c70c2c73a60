/**
 * One JSON line per hook call (the command logs them to stdout): which phase, for which instance, with
 * which children, and how it was answered, so whoever runs the hook in a cluster can read what Scoby
 * asked of it.
 */
import type { HookCallContext, HookHandlers, HookRequest } from '@scoby/hooks-v1';

export interface RequestLogLine {
  phase: string;
  instance: string;
  children?: string[];
  answer: 'ok' | string;
}

function instanceOf(request: HookRequest): string {
  const { namespace, name } = request.object.metadata ?? {};
  return `${request.object.kind} ${namespace ? `${namespace}/` : ''}${name ?? ''}`;
}

export function withRequestLog(
  handlers: Required<HookHandlers>,
  log: (line: RequestLogLine) => void,
): Required<HookHandlers> {
  const logged =
    <T>(call: (request: HookRequest, context: HookCallContext) => T | Promise<T>) =>
    async (request: HookRequest, context: HookCallContext): Promise<T> => {
      const line: RequestLogLine = { phase: request.phase, instance: instanceOf(request), answer: 'ok' };
      if (request.children !== undefined) line.children = Object.keys(request.children).sort();
      try {
        return await call(request, context);
      } catch (error) {
        line.answer = error instanceof Error ? error.message : String(error);
        throw error;
      } finally {
        log(line);
      }
    };
  type Handler = (request: HookRequest, context: HookCallContext) => unknown;
  // Every phase's handler, whatever the phase table names them.
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [name, logged(handler as Handler)]),
  ) as Required<HookHandlers>;
}
