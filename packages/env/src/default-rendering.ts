import { TIER_GENERATED } from './collisions.ts';
import { formatValue } from './format-value.ts';
import { literalValue } from './literal-value.ts';
import { isPlainObject } from '@scoby/kube-objects';
import type { RenderOutput } from './output.ts';
import type { CoverageNode } from './plan.ts';

/**
 * Default rendering (docs/spec/env.md §5 rule 3): every value node not covered by an instruction becomes a
 * generated-name candidate. Below the deepest instruction `coverage` is undefined, which keeps the
 * common case free of map lookups.
 */
export function renderDefaults(
  spec: Record<string, unknown>,
  coverage: CoverageNode,
  prefix: string,
  out: RenderOutput,
): void {
  walk(spec, coverage, 'spec', '', 2, true, prefix, out);
}

function walk(
  node: Record<string, unknown>,
  coverage: CoverageNode | undefined,
  path: string,
  name: string,
  depth: number,
  // False below a key containing a dot: no registration path can name such a node (docs/spec/env.md §2).
  addressable: boolean,
  prefix: string,
  out: RenderOutput,
): void {
  for (const key of Object.keys(node)) {
    const below = coverage?.children.get(key);
    if (below?.covered) continue;
    const value = node[key];
    const dotted = key.includes('.');
    const upper = key.toUpperCase();
    const childName = (name === '' ? '' : name + '_') + (dotted ? upper.replaceAll('.', '_') : upper);
    const childPath = path + '.' + key;
    if (isPlainObject(value)) {
      walk(value, below, childPath, childName, depth + 1, addressable && !dotted, prefix, out);
      continue;
    }
    const formatted = formatValue(value);
    if (formatted === undefined) continue;
    out.candidates.push({
      env: { name: prefix + childName, value: literalValue(formatted) },
      tier: TIER_GENERATED,
      source: childPath,
      rank: depth,
      literal: addressable && !dotted ? formatted : undefined,
    });
  }
}

/** The generated name of an instruction path (docs/spec/env.md §3): prefix + upper(R), R the path without `spec.`. */
export function generatedName(prefix: string, segments: readonly string[]): string {
  return prefix + segments.slice(1).join('_').toUpperCase();
}
