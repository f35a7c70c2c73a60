import type { EnvVar } from '@scoby/kube-objects';

/**
 * The names a value refers to in Kubernetes' dependent-variable syntax: `$(NAME)`, where `$$` is an
 * escaped `$` and so starts no reference (spec-derived values, escaped by literalValue, refer to
 * nothing).
 */
export function referencedNames(value: string): string[] {
  const names: string[] = [];
  for (let cursor = value.indexOf('$'); cursor !== -1 && cursor + 1 < value.length;) {
    const next = value[cursor + 1];
    if (next === '$') {
      cursor = value.indexOf('$', cursor + 2);
      continue;
    }
    if (next === '(') {
      const closer = value.indexOf(')', cursor + 2);
      if (closer === -1) break;
      names.push(value.slice(cursor + 2, closer));
      cursor = value.indexOf('$', closer + 1);
      continue;
    }
    cursor = value.indexOf('$', cursor + 1);
  }
  return names;
}

/**
 * docs/spec/env.md §8: the kubelet expands `$(NAME)` only to a variable defined earlier in the list, so a
 * variable whose value refers to another variable of the list comes after it; every other variable
 * keeps its place in byte order of names (the list is returned as given when nothing refers to
 * anything, so such containers render exactly as before). Among variables that refer to each other
 * in a cycle no order expands them all: the first in byte order goes first, as Kubernetes leaves the
 * reference it cannot expand as written.
 *
 * `sorted` is in byte order of names, each name once.
 */
export function orderForExpansion(sorted: EnvVar[]): EnvVar[] {
  if (!sorted.some((env) => env.value?.includes('$(') === true)) return sorted;
  const index = new Map(sorted.map((env, position) => [env.name, position]));
  const dependencies = sorted.map((env, position) => {
    if (env.value === undefined) return [];
    const positions = referencedNames(env.value).map((name) => index.get(name));
    return [...new Set(positions)].filter(
      (found): found is number => found !== undefined && found !== position,
    );
  });
  if (dependencies.every((found) => found.length === 0)) return sorted;

  const placed = new Array<boolean>(sorted.length).fill(false);
  const ordered: EnvVar[] = [];
  while (ordered.length < sorted.length) {
    let next = dependencies.findIndex(
      (needs, position) => !placed[position] && needs.every((dependency) => placed[dependency]),
    );
    // A cycle: nothing left has all its references placed.
    if (next === -1) next = placed.indexOf(false);
    placed[next] = true;
    ordered.push(sorted[next] as EnvVar);
  }
  return ordered;
}
