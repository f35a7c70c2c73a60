/**
 * The Warning Events a plan stage decides on (docs/spec/children-and-status.md §10), in the order the
 * reconcile meets them. `scoby render` prints each; the controller sends those of a `judged` reason
 * only when their messages changed since the instance's last reconcile (a steady state repeats no
 * Event write), and every other warning each time.
 */
export interface Warning {
  reason: string;
  message: string;
}

export interface StageWarnings {
  warnings: Warning[];
  /**
   * The reasons this stage judged, each sent again only when its messages change; a reason judged
   * with no warning is cleared, so the next warning of it is sent. A reason a stage did not judge
   * keeps what was sent last.
   */
  judged: string[];
}

/** Warnings of `reason` for each message, judged. */
export function judgedWarnings(reason: string, messages: readonly (string | undefined)[]): StageWarnings {
  return {
    warnings: messages.flatMap((message) => (message === undefined ? [] : [{ reason, message }])),
    judged: [reason],
  };
}

export function joinWarnings(...stages: readonly StageWarnings[]): StageWarnings {
  return {
    warnings: stages.flatMap((stage) => stage.warnings),
    judged: stages.flatMap((stage) => stage.judged),
  };
}

export const NO_WARNINGS: StageWarnings = { warnings: [], judged: [] };
