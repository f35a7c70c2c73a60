/* Generated from hooks-v1's phase table (packages/hooks-v1/src/phases.ts) by apps/controller/scripts/generate-built-ins.ts (npm run generate). Do not edit. */

/** The hook phases, in the order the spec lists them (docs/spec/hooks-v1.md). */
export const HOOK_PHASES = [
  "pre-reconcile",
  "finalize"
] as const;

/** Each spelling spec.hook.capabilities accepts, and the phase it enables (registration.md §3.4). */
export const CAPABILITY_SPELLINGS = {
  "pre-reconcile": "pre-reconcile",
  "finalize": "finalize",
  "finalization": "finalize"
} as const;
