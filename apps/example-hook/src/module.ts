/**
 * `@scoby/example-hook/module`: the example hook as an in-process hook (docs/spec/hooks-v1.md §10), the
 * same handlers its HTTP server serves, with the default settings. A controller started with
 * `--hook-module @scoby/example-hook/module` runs it for registrations whose `spec.hook.module` names it.
 */
import { exampleHandlers } from './handlers.ts';

export default exampleHandlers();
