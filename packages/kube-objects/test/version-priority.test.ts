import { describe, expect, it } from 'vitest';
import { compareVersionPriority } from '../src/index.ts';

describe('compareVersionPriority', () => {
  it('orders GA, beta, alpha, then non-Kubernetes versions alphabetically', () => {
    const versions = ['v1alpha1', 'foo', 'v1beta1', 'v2', 'v1', 'v1beta2', 'bar', 'v11alpha2'];
    expect(versions.sort(compareVersionPriority)).toEqual([
      'v2',
      'v1',
      'v1beta2',
      'v1beta1',
      'v11alpha2',
      'v1alpha1',
      'bar',
      'foo',
    ]);
  });
});
