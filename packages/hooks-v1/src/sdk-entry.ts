/**
 * `@scoby/hooks-v1/sdk`: what a hook author needs to serve Scoby's hook calls (docs/spec/hooks-v1.md
 * §3–§7): the server, request dispatch, HookError and the body schemas. The controller's side is
 * `@scoby/hooks-v1/client`.
 */
export type * from './types.ts';
// The JSON and object shapes the types above are made of, so a hook author needs no second package.
export type { JsonObject, JsonValue, KubeObject } from '@scoby/kube-objects';
export { startHookServer, DEFAULT_MAX_REQUEST_BYTES } from './server.ts';
export type { HookServer, HookServerOptions } from './server.ts';
export { dispatchHookRequest } from './dispatch.ts';
export type {
  ChangingHookHandler,
  GatingHookHandler,
  HookAnswer,
  HookCallContext,
  HookHandlers,
  IncomingHookRequest,
} from './dispatch.ts';
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
export { MAX_MESSAGE_LENGTH } from './messages.ts';
