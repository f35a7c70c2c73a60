import { describe, expect, it } from 'vitest';
import { unservedApiMessage } from '../src/index.ts';
import { FAKE_KSVC, fakePlugin } from './fake-plugins.ts';

describe('unservedApiMessage (docs/spec/registration.md §4, CONTROLLERFAILED)', () => {
  it('names the first required API the cluster does not serve', () => {
    expect(unservedApiMessage(FAKE_KSVC, new Set(['v1', 'apps/v1']))).toBe(
      'form factor "knativeService" needs API serving.knative.dev/v1, which the cluster does not serve',
    );
    const plugin = fakePlugin('queue', {
      requiredApis: ['apps/v1', 'queue.example.com/v1', 'queue.example.com/v2'],
    });
    expect(unservedApiMessage(plugin, new Set(['apps/v1']))).toBe(
      'form factor "queue" needs API queue.example.com/v1, which the cluster does not serve',
    );
  });

  it('is undefined when every required API is served', () => {
    expect(unservedApiMessage(FAKE_KSVC, new Set(['serving.knative.dev/v1']))).toBeUndefined();
    expect(unservedApiMessage(fakePlugin('queue'), new Set())).toBeUndefined();
  });
});
