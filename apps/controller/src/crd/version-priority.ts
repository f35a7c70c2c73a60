/**
 * Kubernetes version priority (children-and-status.md §7.1): vN before vNbetaM before vNalphaM,
 * higher N first, then higher M; other names last in byte order.
 */
import { compareByteOrder } from '@scoby/kube-objects';

const PATTERN = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/;
const LEVEL = { ga: 3, beta: 2, alpha: 1 } as const;

interface Rank {
  level: number;
  major: number;
  minor: number;
}

function rank(version: string): Rank | undefined {
  const match = PATTERN.exec(version);
  if (!match) return undefined;
  const stage = (match[2] ?? 'ga') as keyof typeof LEVEL;
  return { level: LEVEL[stage], major: Number(match[1]), minor: Number(match[3] ?? 0) };
}

/** Negative when `a` has higher priority than `b`. */
export function compareVersionPriority(a: string, b: string): number {
  const left = rank(a);
  const right = rank(b);
  if (left && right) {
    return right.level - left.level || right.major - left.major || right.minor - left.minor;
  }
  if (left) return -1;
  if (right) return 1;
  return compareByteOrder(a, b);
}
