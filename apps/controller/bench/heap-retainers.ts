/**
 * The controller's live heap broken down by retainer, from V8 heap snapshots (the controller child's
 * `heap-snapshot`, parsed by heap-snapshot-toolkit, Chrome DevTools' own parser), so the heap per
 * instance is explained rather than divided: every object is charged to the nearest object of a named
 * class (or function, or scope) on its shortest retaining path, and to the field of that object
 * through which the path goes. A Kubernetes object (an object with `apiVersion`, `kind` and
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

const CODE = '(code: bytecode, compiled code, function metadata)';
/** At most this many rows are printed; the rest is summed in one line. */
const MAX_ROWS = 40;

/** Bytes of live heap per retainer label. */
export type RetainerSizes = Map<string, number>;

export async function readSnapshot(path: string): Promise<Snapshot> {
  return parse(createReadStream(path, 'utf8'));
}

/**
 * Self sizes summed per retainer label (see the module's comment), over everything reachable. Each
 * object's retainer is the one through which a breadth-first walk from the roots reaches it first
 * (its shortest retaining path, as DevTools' distances: the user roots, the global objects, first;
 * weak edges never): a partition of the heap in which every object has one retainer. The dominator
 * tree is no use here: in a running process most objects are reached both from their owner and from
 * a root of their own (a pending promise, a handle), which makes the roots their only dominator.
 */
export function sizesByRetainer(snapshot: Snapshot): RetainerSizes {
  const {
    nodes,
    containmentEdges,
    strings,
    firstEdgeIndexes,
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
  const edgeType = (edge: number) => edgeTypes[containmentEdges.getValue(edge + edgeTypeOffset)] ?? '';
  const edgeName = (edge: number) => {
    const type = edgeType(edge);
    const rawName = containmentEdges.getValue(edge + edgeNameOffset);
    return type === 'element' || type === 'hidden' ? '[]' : (strings[rawName] ?? '');
  };
  const edgesOf = (nodeIndex: number): [number, number] => {
    const ordinal = nodeIndex / nodeFieldCount;
    return [firstEdgeIndexes[ordinal]!, firstEdgeIndexes[ordinal + 1]!];
  };
  /** `<kind>` of a Kubernetes object, else undefined. */
  const kubeKind = (nodeIndex: number): string | undefined => {
    if (typeOf(nodeIndex) !== 'object' || nameOf(nodeIndex) !== 'Object') return undefined;
    let kind: string | undefined;
    let fields = 0;
    const [from, to] = edgesOf(nodeIndex);
    for (let edge = from; edge < to; edge += edgeFieldsCount) {
      if (edgeType(edge) !== 'property') continue;
      const name = edgeName(edge);
      const target = containmentEdges.getValue(edge + edgeToNodeOffset);
      if (name === 'kind' && typeOf(target) === 'string') kind = nameOf(target);
      if (name === 'apiVersion' || name === 'metadata' || name === 'kind') fields += 1;
    }
    return fields === 3 ? kind : undefined;
  };
  /** A retainer objects are charged to: an instance of a named class, a named function, a scope. */
  const ownerLabel = (nodeIndex: number): string | undefined => {
    const type = typeOf(nodeIndex);
    const name = nameOf(nodeIndex);
    if (type === 'hidden' && name === 'system / Context') return 'scope';
    if (type !== 'object' && type !== 'closure') return undefined;
    if (name === '' || CONTAINERS.has(name) || name.startsWith('(') || name.startsWith('system /'))
      return undefined;
    return type === 'closure' ? `${name}()` : name;
  };

  const labels: string[] = [];
  const labelIds = new Map<string, number>();
  const labelId = (label: string) => {
    let id = labelIds.get(label);
    if (id === undefined) {
      id = labels.length;
      labels.push(label);
      labelIds.set(label, id);
    }
    return id;
  };
  const nodeCount = nodes.length / nodeFieldCount;
  const labelOf = new Int32Array(nodeCount).fill(-1);
  const sealed = new Uint8Array(nodeCount);
  const queue = new Uint32Array(nodeCount);
  let head = 0;
  let tail = 0;
  const visit = (nodeIndex: number, label: number, seal: boolean) => {
    const ordinal = nodeIndex / nodeFieldCount;
    if (labelOf[ordinal] !== -1) return;
    labelOf[ordinal] = label;
    sealed[ordinal] = seal ? 1 : 0;
    queue[tail++] = nodeIndex;
  };
  const walk = () => {
    while (head < tail) {
      const nodeIndex = queue[head++]!;
      const ordinal = nodeIndex / nodeFieldCount;
      const label = labelOf[ordinal]!;
      const owner = sealed[ordinal] ? undefined : ownerLabel(nodeIndex);
      const [from, to] = edgesOf(nodeIndex);
      for (let edge = from; edge < to; edge += edgeFieldsCount) {
        if (edgeType(edge) === 'weak') continue;
        const target = containmentEdges.getValue(edge + edgeToNodeOffset);
        if (labelOf[target / nodeFieldCount] !== -1) continue;
        if (sealed[ordinal]) {
          visit(target, label, true);
          continue;
        }
        // Bytecode, compiled code and function metadata are the program's, whoever reached them first.
        if (typeOf(target) === 'code') {
          visit(target, labelId(CODE), true);
          continue;
        }
        const base = owner === undefined ? labels[label]! : `${owner}.${edgeName(edge)}`;
        const kind = kubeKind(target);
        if (kind !== undefined) visit(target, labelId(`${kind} objects in ${base}`), true);
        else visit(target, labelId(base), false);
      }
    }
  };
  // The global objects first, then whatever only the system roots reach.
  const root = snapshot.rootNodeIndex;
  labelOf[root / nodeFieldCount] = labelId('(root)');
  const [from, to] = edgesOf(root);
  for (let edge = from; edge < to; edge += edgeFieldsCount) {
    const target = containmentEdges.getValue(edge + edgeToNodeOffset);
    if (typeOf(target) !== 'synthetic') visit(target, labelId('(global)'), false);
  }
  walk();
  for (let edge = from; edge < to; edge += edgeFieldsCount) {
    const target = containmentEdges.getValue(edge + edgeToNodeOffset);
    visit(target, labelId(nameOf(target) || '(system root)'), false);
  }
  walk();

  const sizes: RetainerSizes = new Map();
  for (let ordinal = 0; ordinal < nodeCount; ordinal++) {
    const label = labelOf[ordinal]!;
    if (label === -1) continue;
    const name = labels[label]!;
    sizes.set(name, (sizes.get(name) ?? 0) + nodes.getValue(ordinal * nodeFieldCount + nodeSelfSizeOffset));
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
  /** Retainers that grew and are not among the rows. */
  rest: { retainers: number; bytesPerInstance: number };
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
    if ((growth > 0 && explained / growth >= wanted) || rows.length === MAX_ROWS) break;
    explained += bytes;
    rows.push({ label, bytesPerInstance: bytes / instances, share: growth > 0 ? bytes / growth : 0 });
  }
  const rest = all.slice(rows.length);
  return {
    bytesPerInstance: growth / instances,
    rows,
    rest: {
      retainers: rest.length,
      bytesPerInstance: rest.reduce((sum, row) => sum + row.bytes, 0) / instances,
    },
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
    ...(result.rest.retainers > 0
      ? [
          `  ${result.rest.bytesPerInstance.toFixed(1).padStart(11)}          the rest: ${result.rest.retainers} retainers`,
        ]
      : []),
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
