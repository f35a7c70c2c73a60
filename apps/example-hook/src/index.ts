/** An example Hooks API v1 service built on the @scoby/hooks-v1 SDK. */
import { startHookServer, type HookServer } from '@scoby/hooks-v1/sdk';
import { exampleHandlers } from './handlers.ts';
import type { ExampleHookOptions } from './options.ts';
import { withRequestLog } from './request-log.ts';

export { exampleHandlers, HOOKED_ANNOTATION, ADAPTER_CONTAINER } from './handlers.ts';
export { optionsFromEnv, DEFAULT_PORT } from './options.ts';
export type { ExampleHookOptions, OptionsReading } from './options.ts';
export { withRequestLog, type RequestLogLine } from './request-log.ts';

/** Starts the example hook; `url` is what a registration's `spec.hook.address.uri` should point to. */
export function createExampleHook(options: ExampleHookOptions = {}): Promise<HookServer> {
  const { port, host, path, formFactorFormat, logRequest } = options;
  const handlers = exampleHandlers(options);
  return startHookServer({
    port,
    host,
    path,
    formFactorFormat,
    ...(logRequest === undefined ? handlers : withRequestLog(handlers, logRequest)),
  });
}
