import type { Status } from '../../instance/status/instance-status.ts';

/** Why `scoby render` produced no output: a condition reason (e.g. RenderFailed) and its message. */
export interface RenderFailure {
  reason: string;
  message: string;
  /**
   * For a failure the controller records on the instance (RenderFailed, HookFailed, ApplyFailed):
   * the status it writes (null without a status subresource). Not printed.
   */
  status?: Status | null;
}

/** The line written to stderr. */
export function formatFailure(failure: RenderFailure): string {
  return `${failure.reason}: ${failure.message}\n`;
}
