import { compareByteOrder, hasSurrogates } from '@scoby/kube-objects';
import type { EnvCandidate } from './collisions.ts';

/** Spec path → literal value of every mapped candidate, winners and collision losers alike. */
export function buildSourceMap(candidates: readonly EnvCandidate[]): Record<string, string> {
  const mapped = candidates.filter((candidate) => candidate.literal !== undefined);
  const paths = mapped.map((candidate) => candidate.source);
  // Mapped sources are unique: an instruction's path is never default-rendered, and mapped default
  // paths contain no dotted keys, so one path string stands for one node.
  if (hasSurrogates(paths)) mapped.sort((a, b) => compareByteOrder(a.source, b.source));
  else mapped.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  const sourceMap: Record<string, string> = {};
  for (const candidate of mapped) sourceMap[candidate.source] = candidate.literal as string;
  return sourceMap;
}

/**
 * Turns `result.sourceMap` into a property computed on first read, after which it is an ordinary data
 * property (redefining the existing key keeps its position among the result's keys). Building the map costs about as much as the rest of rendering, and most registrations never
 * read it.
 */
export function withLazySourceMap<T extends object>(
  result: T,
  candidates: readonly EnvCandidate[],
): T & { sourceMap: Record<string, string> } {
  return Object.defineProperty(result, 'sourceMap', {
    configurable: true,
    enumerable: true,
    get(this: T) {
      const sourceMap = buildSourceMap(candidates);
      Object.defineProperty(this, 'sourceMap', {
        value: sourceMap,
        writable: true,
        enumerable: true,
        configurable: true,
      });
      return sourceMap;
    },
    set(this: T, sourceMap: Record<string, string>) {
      Object.defineProperty(this, 'sourceMap', {
        value: sourceMap,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    },
  }) as T & { sourceMap: Record<string, string> };
}
