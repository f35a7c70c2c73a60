/** A failed hook call as the hooks-v1 client reports it: transient unless `fields` say otherwise. */
import type { HookFailure } from '@scoby/hooks-v1/client';

export const hookFailure = (fields: Partial<HookFailure>): HookFailure => ({
  ok: false,
  message: 'pre-reconcile hook: failed',
  outcome: 'transport-error',
  permanent: false,
  continue: false,
  transient: true,
  ...fields,
});
