/**
 * The hook phases (docs/spec/hooks-v1.md §2–§7, registration.md §3.4), one row each: what the parts
 * of Scoby that handle a phase read instead of each spelling the phases out. Registration
 * validation and the CRD's enum (through a generated copy, since @scoby/registration cannot import
 * this package), the reconcile's choice of calls and request bodies, failure policy, in-process
 * hook modules, the hook metrics and `scoby hook check`'s sequence all read these rows.
 */

export interface HookPhaseDescriptor {
  /** The phase as the request names it (hooks-v1.md §3, `phase`). */
  readonly phase: string;
  /**
   * The `spec.hook.capabilities` spellings that enable it (registration.md §3.4), the phase's own
   * name first; every spelling normalises to `phase`.
   */
  readonly capabilities: readonly string[];
  /**
   * When Scoby calls it: in every reconcile before the children are written, or once the instance is
   * deleted, while Scoby's finalizer holds it until the answer lets it go (hooks-v1.md §4, §7).
   */
  readonly calledAt: 'reconcile' | 'deletion';
  /** The function of HookHandlers (the SDK, an in-process module) that answers it. */
  readonly handler: string;
  /**
   * The request carries the observed children and a success answer may change the instance's
   * status and children (hooks-v1.md §3, §5); otherwise the answer only lets the instance go.
   */
  readonly answersWithChanges: boolean;
  /** Whether `spec.hook.failurePolicy: Ignore` may let a reconcile go on without it (hooks-v1.md §6.6). */
  readonly failurePolicyApplies: boolean;
  /** The sections of docs/spec/hooks-v1.md that define its request and answer, as reports cite them. */
  readonly section: string;
}

const BUILT_IN = [
  {
    phase: 'pre-reconcile',
    capabilities: ['pre-reconcile'],
    calledAt: 'reconcile',
    handler: 'preReconcile',
    answersWithChanges: true,
    failurePolicyApplies: true,
    section: 'hooks-v1.md §3–§5',
  },
  {
    phase: 'finalize',
    capabilities: ['finalize', 'finalization'],
    calledAt: 'deletion',
    handler: 'finalize',
    answersWithChanges: false,
    // A finalize call gates the instance's deletion whatever the policy (hooks-v1.md §6.6, §7).
    failurePolicyApplies: false,
    section: 'hooks-v1.md §7',
  },
] as const satisfies readonly HookPhaseDescriptor[];

/** A row of the spec's phases, with its fields as written: what the wire and SDK types are made of. */
export type BuiltInHookPhase = (typeof BUILT_IN)[number];

const phases: HookPhaseDescriptor[] = [...BUILT_IN];

/** Every phase, in the order the spec lists them. */
export function hookPhases(): readonly HookPhaseDescriptor[] {
  return phases;
}

/** The phase named `phase` on the wire, if there is one. */
export function hookPhase(phase: string): HookPhaseDescriptor | undefined {
  return phases.find((descriptor) => descriptor.phase === phase);
}

/**
 * Adds a phase for as long as the answer is not called (tests of what a new phase touches); a
 * phase of the spec is a row of BUILT_IN.
 */
export function registerHookPhase(descriptor: HookPhaseDescriptor): () => void {
  if (hookPhase(descriptor.phase) !== undefined) throw new Error(`hook phase ${descriptor.phase} exists`);
  phases.push(descriptor);
  return () => {
    const index = phases.indexOf(descriptor);
    if (index >= 0) phases.splice(index, 1);
  };
}
