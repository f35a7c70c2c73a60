/**
 * kube-apiserver's naming controller: a CRD's names are accepted unless another CRD of its group has
 * accepted them already (plural, singular and short names share one set, kind and list kind another).
 * Each conflicting name keeps its previously accepted value; the condition names the last conflict
 * found, in the order plural, singular, short names, kind, list kind. A CRD is served (Established)
 * only once its names are accepted.
 */
import type { CrdSpec } from '../crd-spec.ts';

export type CrdNames = CrdSpec['names'];

export interface NamingResult {
  accepted: Partial<CrdNames>;
  /** Undefined when every name is accepted. */
  conflict?: { reason: string; message: string };
}

function inUse(name: string): string {
  return `"${name}" is already in use`;
}

/** The names `requested` may have, given what it accepted before and what its group's other CRDs accepted. */
export function acceptNames(
  requested: CrdNames & { singular: string; listKind: string },
  before: Partial<CrdNames>,
  others: readonly Partial<CrdNames>[],
): NamingResult {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const names of others) {
    for (const name of [names.plural, names.singular, ...(names.shortNames ?? [])])
      if (name) resources.add(name);
    for (const name of [names.kind, names.listKind]) if (name) kinds.add(name);
  }
  const accepted: Partial<CrdNames> = { ...before };
  let conflict: NamingResult['conflict'];
  const take = (
    field: 'plural' | 'singular' | 'kind' | 'listKind',
    taken: ReadonlySet<string>,
    reason: string,
  ): void => {
    const name = requested[field];
    if (name === before[field] || !taken.has(name)) accepted[field] = name;
    else conflict = { reason, message: inUse(name) };
  };
  take('plural', resources, 'PluralConflict');
  take('singular', resources, 'SingularConflict');
  const mine = new Set(before.shortNames ?? []);
  const takenShort = (requested.shortNames ?? []).filter((name) => !mine.has(name) && resources.has(name));
  if (takenShort.length === 0) {
    if (requested.shortNames === undefined) delete accepted.shortNames;
    else accepted.shortNames = requested.shortNames;
  } else {
    const messages = takenShort.map(inUse);
    conflict = {
      reason: 'ShortNamesConflict',
      message: messages.length === 1 ? (messages[0] ?? '') : `[${messages.join(', ')}]`,
    };
  }
  take('kind', kinds, 'KindConflict');
  take('listKind', kinds, 'ListKindConflict');
  if (requested.categories === undefined) delete accepted.categories;
  else accepted.categories = requested.categories;
  return conflict === undefined ? { accepted } : { accepted, conflict };
}
