/**
 * The heap broken down by retainer (bench/heap-retainers.ts), on snapshots of a small Node.js process
 * that caches Kubernetes objects in a class's private Map, before and after 2,000 of them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { breakdown, breakdownOfSnapshots, formatBreakdown } from '../../bench/heap-retainers.ts';

const PROCESS = `
import { writeHeapSnapshot } from 'node:v8';
const [before, after] = process.argv.slice(-2);
class Store { #objects = new Map(); set(key, value) { this.#objects.set(key, value); } }
class Informer { store = new Store(); }
globalThis.informer = new Informer();
writeHeapSnapshot(before);
for (let index = 0; index < 2000; index++) {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'shop', name: 'cm-' + index }, data: { value: 'v'.repeat(100) + index } };
  globalThis.informer.store.set('shop/cm-' + index, JSON.parse(JSON.stringify(object)));
}
writeHeapSnapshot(after);
`;

describe('the heap by retainer', () => {
  it('charges cached objects to the field that holds them, and explains 95 % of the growth', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scoby-heap-retainers-'));
    const [before, after] = [join(dir, 'before.heapsnapshot'), join(dir, 'after.heapsnapshot')];
    execFileSync(process.execPath, ['--input-type=module', '-e', PROCESS, before, after]);
    const result = await breakdownOfSnapshots(before, after, 2_000);
    expect(result.rows.map((row) => row.label).slice(0, 2)).toEqual([
      'ConfigMap objects in Store.#objects',
      'Store.#objects',
    ]);
    expect(result.attributed).toBeGreaterThanOrEqual(0.95);
    // Each object holds at least its 100-character value and its name.
    expect(result.rows[0]!.bytesPerInstance).toBeGreaterThan(150);
    expect(formatBreakdown(result)[0]).toMatch(
      /^\d+ bytes per instance of reachable heap; 2 retainers explain \d+\.\d % of it:$/,
    );
  }, 60_000);

  it('lists the largest growths until the share asked for is explained', () => {
    const loaded = new Map([
      ['A.x', 100],
      ['B.y', 50],
    ]);
    const converged = new Map([
      ['A.x', 700],
      ['B.y', 350],
      ['C.z', 85],
      ['D.w', 10],
      ['E.v', 5],
    ]);
    expect(breakdown(loaded, converged, 10, 0.9)).toEqual({
      bytesPerInstance: 100,
      rows: [
        { label: 'A.x', bytesPerInstance: 60, share: 0.6 },
        { label: 'B.y', bytesPerInstance: 30, share: 0.3 },
      ],
      rest: { retainers: 3, bytesPerInstance: 10 },
      attributed: 0.9,
    });
  });
});
