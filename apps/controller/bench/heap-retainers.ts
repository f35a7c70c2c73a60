/**
 * The controller's live heap broken down by retainer, from V8 heap snapshots (the controller child's
 * `heap-snapshot`), so the heap per instance is explained rather than divided: every object is
 * charged to the nearest object of a named class that retains it alone (its nearest dominator of
 * that kind, in the dominator tree Chrome DevTools computes: heap-snapshot-toolkit), and to the field
 * of that object through which it hangs. A Kubernetes object (an object with `apiVersion`, `kind` and
 * `metadata`) is a retainer of its own: all it holds is charged to `<kind> objects in <its retainer>`.
 *
 * Of two snapshots of the same process, with its code loaded and converged over N instances, each
 * retainer's growth divided by N is its part of the heap per instance; the rows are printed until
 * they explain the share asked for (95 %) of the growth.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'heap-snapshot-toolkit';

/** Classes whose instances are containers, not owners: what they hold is charged further up. */
const CONTAINERS = new Set([
  'Object',
  'Array',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'Promise',
  'Function',
  'Error',
  'ArrayBuffer',
  'Uint8Array',
  'Buffer',
  'DataView',
  'Arguments',
]);

type Snapshot = Awaited<ReturnType<typeof parse>>;

/** Bytes of live heap per retainer label. */
export type RetainerSizes = Map<string, number>;

export async function readSnapshot(path: string): Promise<Snapshot> {
  return parse(createReadStream(path, 'utf8'));
}

/** Self sizes summed per retainer label (see the module's comment), over everything reachable. */
export function sizesByRetainer(snapshot: Snapshot): RetainerSizes {
  const {
    nodes,
    containmentEdges,
    strings,
    firstEdgeIndexes,
    firstDominatedNodeIndex,
    dominatedNodes,
    nodeFieldCount,
    nodeTypeOffset,
    nodeNameOffset,
    nodeSelfSizeOffset,
    edgeFieldsCount,
    edgeTypeOffset,
    edgeNameOffset,
    edgeToNodeOffset,
    nodeTypes,
    edgeTypes,
  } = snapshot;
  const typeOf = (nodeIndex: number) => nodeTypes[nodes.getValue(nodeIndex + nodeTypeOffset)];
  const nameOf = (nodeIndex: number) => strings[nodes.getValue(nodeIndex + nodeNameOffset)] ?? '';
  const edgesOf = function* (nodeIndex: number): Generator<{ type: string; name: string; to: number }> {
    const ordinal = nodeIndex / nodeFieldCount;
    for (
      let edge = firstEdgeIndexes[ordinal]!;
      edge < firstEdgeIndexes[ordinal + 1]!;
      edge += edgeFieldsCount
    ) {
      const type = edgeTypes[containmentEdges.getValue(edge + edgeTypeOffset)] ?? '';
      const rawName = containmentEdges.getValue(edge + edgeNameOffset);
      const name = type === 'element' || type === 'hidden' ? `[${rawName}]` : (strings[rawName] ?? '');
      yield { type, name, to: containmentEdges.getValue(edge + edgeToNodeOffset) };
    }
  };
  /** `<kind>` of a Kubernetes object, else undefined. */
  const kubeKind = (nodeIndex: number): string | undefined => {
    if (typeOf(nodeIndex) !== 'object' || nameOf(nodeIndex) !== 'Object') return undefined;
    let kind: string | undefined;
    let fields = 0;
    for (const edge of edgesOf(nodeIndex)) {
      if (edge.type !== 'property') continue;
      if (edge.name === 'kind' && typeOf(edge.to) === 'string') kind = nameOf(edge.to);
      if (edge.name === 'apiVersion' || edge.name === 'metadata' || edge.name === 'kind') fields += 1;
    }
    return fields === 3 ? kind : undefined;
  };
  const isOwner = (nodeIndex: number): boolean => {
    const type = typeOf(nodeIndex);
    if (type !== 'object' && type !== 'closure') return false;
    const name = nameOf(nodeIndex);
    return name !== '' && !CONTAINERS.has(name) && !name.startsWith('(') && !name.startsWith('system /');
  };
  const ownerLabel = (nodeIndex: number) =>
    typeOf(nodeIndex) === 'closure' ? `${nameOf(nodeIndex)}()` : nameOf(nodeIndex);
  const fieldTo = (from: number, to: number): string => {
    for (const edge of edgesOf(from)) if (edge.to === to) return edge.name;
    return '…';
  };

  const sizes: RetainerSizes = new Map();
  const charge = (label: string, nodeIndex: number) =>
    sizes.set(label, (sizes.get(label) ?? 0) + nodes.getValue(nodeIndex + nodeSelfSizeOffset));
  // Depth first over the dominator tree, each node with the label it is charged to and whether a
  // Kubernetes object above it claims all it holds.
  const stack: Array<{ nodeIndex: number; label: string; sealed: boolean }> = [
    { nodeIndex: snapshot.rootNodeIndex, label: '(GC roots)', sealed: false },
  ];
  while (stack.length > 0) {
    const { nodeIndex, label, sealed } = stack.pop()!;
    charge(label, nodeIndex);
    const ordinal = nodeIndex / nodeFieldCount;
    const owner = !sealed && isOwner(nodeIndex);
    for (let at = firstDominatedNodeIndex[ordinal]!; at < firstDominatedNodeIndex[ordinal + 1]!; at++) {
      const child = dominatedNodes[at]!;
      if (sealed) {
        stack.push({ nodeIndex: child, label, sealed });
        continue;
      }
      const kind = kubeKind(child);
      const childLabel = owner ? `${ownerLabel(nodeIndex)}.${fieldTo(nodeIndex, child)}` : label;
      if (kind !== undefined)
        stack.push({ nodeIndex: child, label: `${kind} objects in ${childLabel}`, sealed: true });
      else stack.push({ nodeIndex: child, label: childLabel, sealed: false });
    }
  }
  return sizes;
}

export interface RetainerRow {
  label: string;
  bytesPerInstance: number;
  /** Of the growth per instance. */
  share: number;
}

export interface RetainerBreakdown {
  /** Growth of the whole reachable heap between the snapshots, per instance. */
  bytesPerInstance: number;
  /** The rows printed: the largest growths until `attributed` reaches the share asked for. */
  rows: RetainerRow[];
  /** The share of the growth the rows explain. */
  attributed: number;
}

/** Each retainer's growth from `loaded` to `converged`, per instance, largest first, until `wanted` of it is explained. */
export function breakdown(
  loaded: RetainerSizes,
  converged: RetainerSizes,
  instances: number,
  wanted = 0.95,
): RetainerBreakdown {
  const total = (sizes: RetainerSizes) => [...sizes.values()].reduce((sum, value) => sum + value, 0);
  const growth = total(converged) - total(loaded);
  const labels = new Set([...loaded.keys(), ...converged.keys()]);
  const all = [...labels]
    .map((label) => ({ label, bytes: (converged.get(label) ?? 0) - (loaded.get(label) ?? 0) }))
    .filter((row) => row.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes || a.label.localeCompare(b.label));
  const rows: RetainerRow[] = [];
  let explained = 0;
  for (const { label, bytes } of all) {
    if (growth > 0 && explained / growth >= wanted) break;
    explained += bytes;
    rows.push({ label, bytesPerInstance: bytes / instances, share: growth > 0 ? bytes / growth : 0 });
  }
  return {
    bytesPerInstance: growth / instances,
    rows,
    attributed: growth > 0 ? explained / growth : 0,
  };
}

export function formatBreakdown(result: RetainerBreakdown): string[] {
  return [
    `${result.bytesPerInstance.toFixed(0)} bytes per instance of reachable heap; ` +
      `${result.rows.length} retainers explain ${(result.attributed * 100).toFixed(1)} % of it:`,
    '  bytes/inst.   share  retainer (class.field, or <kind> objects in class.field)',
    ...result.rows.map(
      (row) =>
        `  ${row.bytesPerInstance.toFixed(1).padStart(11)}  ${(row.share * 100).toFixed(1).padStart(5)} %  ${row.label}`,
    ),
  ];
}

/** The breakdown of two snapshot files of one process. */
export async function breakdownOfSnapshots(
  loadedPath: string,
  convergedPath: string,
  instances: number,
): Promise<RetainerBreakdown> {
  const loaded = sizesByRetainer(await readSnapshot(loadedPath));
  const converged = sizesByRetainer(await readSnapshot(convergedPath));
  return breakdown(loaded, converged, instances);
}
