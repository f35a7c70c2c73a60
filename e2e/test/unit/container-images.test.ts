/** The kubeconfig read inside a cluster container, pointed at the port the engine published. */
import { describe, expect, it } from 'vitest';
import { kubeconfigWithServer } from '../../src/providers/container-images.ts';

describe('kubeconfigWithServer', () => {
  it('replaces the server of the cluster entry and nothing else', () => {
    const inside = [
      'apiVersion: v1',
      'clusters:',
      '- cluster:',
      '    certificate-authority-data: Q0E=',
      '    server: https://172.17.0.2:6443',
      '  name: scoby-node',
      'users:',
      '- name: kubernetes-super-admin',
      '  user: {token: server-side}',
      '',
    ].join('\n');
    expect(kubeconfigWithServer(inside, 'https://127.0.0.1:32768')).toBe(
      inside.replace('https://172.17.0.2:6443', 'https://127.0.0.1:32768'),
    );
  });
});
