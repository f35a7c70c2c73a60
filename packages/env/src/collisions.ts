import { compactJson, compareByteOrder, hasSurrogates, type EnvVar } from '@scoby/kube-objects';
import type { EnvNameCollision } from './types.ts';

/** Collision tiers (docs/spec/env.md §7): add.toEnv, fromSpec.toEnv with a name, generated names. */
export const TIER_ADD = 0;
export const TIER_NAMED = 1;
export const TIER_GENERATED = 2;

export interface EnvCandidate {
  env: EnvVar;
  tier: number;
  /** `add.toEnv` for tier A, otherwise the normalised spec path the variable comes from. */
  source: string;
  /** Tie-breaker among equal sources: list index in add.toEnv, else the path's segment count. */
  rank: number;
  /**
   * The value as rendered, before `$` escaping, when it belongs in the source map (docs/spec/env.md intro);
   * undefined for add.toEnv, for references, and below a key containing a dot, which no registration
   * path can name (docs/spec/env.md §2).
   */
  literal: string | undefined;
}

/**
 * Which of two candidates for one name wins (negative: `a`): the lower tier, then the smaller source
 * path in byte order. Paths are only equal when a key contains a dot (`a.b` vs `a` → `b`); rank and
 * then the rendered entry keep the outcome independent of key order in that case too.
 */
export function compareCandidates(a: EnvCandidate, b: EnvCandidate): number {
  return (
    a.tier - b.tier ||
    compareByteOrder(a.source, b.source) ||
    a.rank - b.rank ||
    compareByteOrder(compactJson(a.env), compactJson(b.env))
  );
}

export interface SettledEnv {
  env: EnvVar[];
  warnings: EnvNameCollision[];
}

/**
 * Settles name collisions (docs/spec/env.md §7) and sorts the winners by name in byte order (§8). Sorting puts
 * each name's winner first in its run of equal names, so the rest of a run are the dropped rivals.
 */
export function settleEnv(candidates: EnvCandidate[]): SettledEnv {
  const env: EnvVar[] = [];
  const warnings: EnvNameCollision[] = [];
  let winner: EnvCandidate | undefined;
  for (const candidate of candidates.sort(byNameThenRank(candidates))) {
    if (winner?.env.name === candidate.env.name) {
      warnings.push({
        reason: 'EnvNameCollision',
        message: `environment variable "${candidate.env.name}" from ${describeSource(candidate)} is not set: the name is set by ${describeSource(winner)}`,
      });
    } else {
      winner = candidate;
      env.push(candidate.env);
    }
  }
  return { env, warnings };
}

function byNameThenRank(candidates: readonly EnvCandidate[]): (a: EnvCandidate, b: EnvCandidate) => number {
  if (hasSurrogates(candidates.map((candidate) => candidate.env.name))) {
    return (a, b) => compareByteOrder(a.env.name, b.env.name) || compareCandidates(a, b);
  }
  return (a, b) => {
    const x = a.env.name;
    const y = b.env.name;
    return x < y ? -1 : x > y ? 1 : compareCandidates(a, b);
  };
}

function describeSource(candidate: EnvCandidate): string {
  return candidate.tier === TIER_ADD ? 'add.toEnv' : `"${candidate.source}"`;
}
