import { describe, expect, it } from 'vitest';
import { splitApiVersion } from '../src/index.ts';

describe('splitApiVersion', () => {
  it('splits a grouped apiVersion', () => {
    expect(splitApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
  });
  it('treats a bare version as the core group', () => {
    expect(splitApiVersion('v1')).toEqual({ group: '', version: 'v1' });
  });
});
