/**
 * `@scoby/hooks-v1/client`: what a controller needs to call hooks (docs/spec/hooks-v1.md §2–§6): the
 * client, its answer budget and the request and answer types. Hook authors use `@scoby/hooks-v1/sdk`.
 */
export type * from './types.ts';
export {
  createHookClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_USER_AGENT,
  HookCallCutError,
  interpretOutcome,
  MODULE_URL_SCHEME,
  moduleHookUrl,
} from './client.ts';
export type { HookClient, HookClientOptions } from './client.ts';
export {
  AnswerBudget,
  DEFAULT_ANSWER_BUDGET_BYTES,
  DEFAULT_SMALL_ANSWER_BYTES,
  type AnswerBudgetOptions,
} from './answer-budget.ts';
export { buildRequestBody } from './request-body.ts';
export type { HookRequestBody } from './request-body.ts';
export { parseRetryAfter, MAX_RETRY_AFTER_MS } from './retry-after.ts';
export { createUrlTransport } from './http-transport.ts';
export type { UrlTransport } from './http-transport.ts';
export { createModuleTransport, type ModuleTransportOptions } from './module-transport.ts';
export type { HookTransport, TransportCallOptions, TransportOutcome } from './transport.ts';
export type { HookHandlers, HookCallContext } from './dispatch.ts';
export { hookPhase, hookPhases, registerHookPhase, type HookPhaseDescriptor } from './phases.ts';
