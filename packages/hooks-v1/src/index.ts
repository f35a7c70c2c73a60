export type * from './types.ts';
// The JSON and object shapes the types above are made of, so a hook author needs no second package.
export type { JsonObject, JsonValue, KubeObject } from '@scoby/kube-objects';
export { createHookClient, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_USER_AGENT } from './client.ts';
export type { HookClient, HookClientOptions } from './client.ts';
export {
  AnswerBudget,
  DEFAULT_ANSWER_BUDGET_BYTES,
  DEFAULT_SMALL_ANSWER_BYTES,
  type AnswerBudgetOptions,
} from './answer-budget.ts';
export { startHookServer, DEFAULT_MAX_REQUEST_BYTES } from './server.ts';
export type { HookServer, HookServerOptions } from './server.ts';
export { dispatchHookRequest } from './dispatch.ts';
export type { HookAnswer, HookHandlers, IncomingHookRequest } from './dispatch.ts';
export { HookError } from './hook-error.ts';
export type { HookErrorOptions } from './hook-error.ts';
export {
  hookRequestSchema,
  hookResponseSchema,
  hookErrorBodySchema,
  validateHookRequest,
  validateHookResponse,
  validateHookErrorBody,
} from './schemas.ts';
export type { BodyValidator } from './schemas.ts';
export { buildRequestBody } from './request-body.ts';
export type { HookRequestBody } from './request-body.ts';
export { parseRetryAfter, MAX_RETRY_AFTER_MS } from './retry-after.ts';
export { MAX_MESSAGE_LENGTH } from './messages.ts';
export { setLongTimeout, MAX_TIMER_DELAY_MS } from './long-timeout.ts';
