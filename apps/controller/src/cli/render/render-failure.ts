/** Why `scoby render` produced no output: a condition reason (e.g. RenderFailed) and its message. */
export interface RenderFailure {
  reason: string;
  message: string;
}

/** The line written to stderr. */
export function formatFailure(failure: RenderFailure): string {
  return `${failure.reason}: ${failure.message}\n`;
}
