import { describe, expect, it } from 'vitest';
import { applyConflicts, conflictMessage, withoutConflicts } from '../../src/patch/apply-conflicts.ts';
import { changedFields } from '../../src/patch/changed-fields.ts';
import { listStrategy } from '../../src/patch/index.ts';

const deployment = (image: string, env: { name: string; value: string }[]) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', finalizers: ['x'] },
  spec: { template: { spec: { containers: [{ name: 'app', image, env }] } } },
});

describe('applyConflicts', () => {
  it('names differing leaves under keyed list items, not the identity fields every apply names', () => {
    const others = new Map([['first', deployment('v1', [{ name: 'A', value: '1' }])]]);
    expect(applyConflicts(deployment('v2', [{ name: 'A', value: '2' }]), others, listStrategy)).toEqual([
      { manager: 'first', field: '.spec.template.spec.containers[name="app"].image' },
      { manager: 'first', field: '.spec.template.spec.containers[name="app"].env[name="A"].value' },
    ]);
  });

  it('finds none for equal values, other list items, set members or fields the other never applied', () => {
    const others = new Map([['first', deployment('v1', [{ name: 'A', value: '1' }])]]);
    const applied = {
      ...deployment('v1', [{ name: 'B', value: '2' }]),
      metadata: { name: 'd', finalizers: ['y'], labels: { a: 'b' } },
    };
    expect(applyConflicts(applied, others, listStrategy)).toEqual([]);
  });

  it('compares atomic lists whole', () => {
    const others = new Map([['first', { spec: { args: ['a', 'b'] } }]]);
    expect(applyConflicts({ spec: { args: ['a'] } }, others, listStrategy)).toEqual([
      { manager: 'first', field: '.spec.args' },
    ]);
  });
});

describe('withoutConflicts', () => {
  it('takes only the conflicting fields from the other managers', () => {
    const others = new Map([['first', { data: { a: '1', b: '1' } }]]);
    expect(withoutConflicts({ data: { a: '2', b: '1' } }, others, listStrategy)).toEqual(
      new Map([['first', { data: { b: '1' } }]]),
    );
  });
});

describe('changedFields', () => {
  it('keeps changed leaves, keyed items with their keys, and leaves out sets and identity fields', () => {
    const before = {
      metadata: { name: 'd', resourceVersion: '1', finalizers: ['x'] },
      spec: { ports: [{ port: 53, protocol: 'UDP', targetPort: 53, name: 'dns' }], args: ['a'] },
    };
    const after = {
      metadata: { name: 'd', resourceVersion: '2', finalizers: ['x', 'y'], labels: { a: 'b' } },
      spec: { ports: [{ port: 53, protocol: 'UDP', targetPort: 5353, name: 'dns' }], args: ['a'] },
    };
    const at = (path: readonly string[]) =>
      path.join('.') === 'spec.ports'
        ? { kind: 'mergeByKeys' as const, keys: ['port', 'protocol'], defaults: {} }
        : listStrategy(path);
    expect(changedFields(before, after, at)).toEqual({
      metadata: { labels: { a: 'b' } },
      spec: { ports: [{ targetPort: 5353, port: 53, protocol: 'UDP' }] },
    });
    expect(changedFields(before, before, at)).toEqual({});
  });
});

describe('conflictMessage', () => {
  it('groups several conflicts by manager, managers sorted', () => {
    expect(
      conflictMessage([
        { manager: '"b" using v1', field: '.data.x' },
        { manager: '"a"', field: '.data.y' },
      ]),
    ).toBe(
      'Apply failed with 2 conflicts: conflicts with "a":\n- .data.y\nconflicts with "b" using v1:\n- .data.x',
    );
  });
});
