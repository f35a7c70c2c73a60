import { describe, expect, it } from 'vitest';
import { sharedString, withSharedStrings } from '../../src/informer/shared-strings.ts';

describe('sharedString', () => {
  it('gives back the same text, for any text a key can be', () => {
    for (const text of [
      'apps/v1',
      '',
      '0',
      '42',
      '4294967295',
      '__proto__',
      'constructor',
      'a'.repeat(300),
    ]) {
      expect(sharedString(text)).toBe(text);
    }
  });
});

describe('withSharedStrings', () => {
  const object = {
    apiVersion: 'apps/v1',
    metadata: { name: 'greeter', labels: {}, finalizers: [] as string[] },
    status: { replicas: 2, ready: true, none: null, conditions: [{ type: 'Available', status: 'True' }] },
  };

  it('copies a JSON value equal to it, sharing nothing with it but strings', () => {
    const copy = withSharedStrings(object);
    expect(copy).toEqual(object);
    expect(copy).not.toBe(object);
    expect(copy.status.conditions[0]).not.toBe(object.status.conditions[0]);
    expect(withSharedStrings(undefined)).toBeUndefined();
    expect(withSharedStrings('text')).toBe('text');
  });

  it('makes every empty object and array one frozen empty object and array only when asked', () => {
    const shared = withSharedStrings(object, { shareEmpty: true });
    const again = withSharedStrings(object, { shareEmpty: true });
    expect(shared).toEqual(object);
    expect(shared.metadata.labels).toBe(again.metadata.labels);
    expect(shared.metadata.finalizers).toBe(again.metadata.finalizers);
    expect(Object.isFrozen(shared.metadata.labels)).toBe(true);
    expect(Object.isFrozen(shared.metadata.finalizers)).toBe(true);
    const apart = withSharedStrings(object);
    expect(apart.metadata.labels).not.toBe(withSharedStrings(object).metadata.labels);
    expect(Object.isFrozen(apart.metadata.labels)).toBe(false);
  });
});
