// The same handlers as an in-process hook: the default export a controller started with
// `--hook-module <this module>` runs for registrations whose spec.hook.module names it.
import type { HookHandlers } from '@scoby/hooks-v1';
import { finalize, preReconcile } from './handlers.js';

const handlers: HookHandlers = { preReconcile, finalize };
export default handlers;
