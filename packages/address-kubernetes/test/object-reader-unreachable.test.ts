import { KubeConfig } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { createObjectReader } from '../src/index.ts';

it('returns the transport error as the message when the API server cannot be reached', async () => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    // Port 9 (discard) has no listener here; client-node only allows plain HTTP with skipTLSVerify.
    clusters: [{ name: 'gone', server: 'http://127.0.0.1:9', skipTLSVerify: true }],
    users: [{ name: 'nobody' }],
    contexts: [{ name: 'gone', cluster: 'gone', user: 'nobody' }],
    currentContext: 'gone',
  });
  const reader = createObjectReader(kubeConfig);
  const result = await reader.get({ apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'x' });
  expect(result).toEqual({ found: false, message: expect.stringContaining('ECONNREFUSED') });
});
