/**
 * A hook phase that is not in the spec, registered in hooks-v1's phase table by the tests that show
 * what reads the table: a deletion gate, as finalize is, under two spellings.
 */
import type { HookPhaseDescriptor } from '@scoby/hooks-v1/client';

export const THROW_AWAY_PHASE = {
  phase: 'archive',
  capabilities: ['archive', 'archival'],
  calledAt: 'deletion',
  handler: 'archive',
  answersWithChanges: false,
  failurePolicyApplies: true,
  section: 'hooks-v1.md §7',
} as const satisfies HookPhaseDescriptor;
