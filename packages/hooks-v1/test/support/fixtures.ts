import type { KubeObject } from '@scoby/kube-objects';
import type { HookCall } from '../../src/index.ts';

export const instance: KubeObject = {
  apiVersion: 'notify.example.com/v1',
  kind: 'Mailer',
  metadata: {
    name: 'orders',
    namespace: 'shop',
    uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
    generation: 3,
    labels: { team: 'mail' },
    annotations: { owner: 'ops' },
    managedFields: [{ manager: 'kubectl' }],
  },
  spec: { smtp: { host: 'mail.internal' } },
  status: { observedGeneration: 2 },
};

export const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'mailer-orders', namespace: 'shop' },
  spec: { replicas: 2 },
};

export const service: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'mailer-orders', namespace: 'shop' },
  spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
};

export const deploymentManagedKinds = [
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'v1', kind: 'Service' },
];

export function preReconcileCall(url: string, overrides: Partial<HookCall> = {}): HookCall {
  return {
    url,
    timeoutMs: 2000,
    phase: 'pre-reconcile',
    formFactor: 'deployment',
    object: instance,
    children: { deployment, service },
    managedKinds: deploymentManagedKinds,
    instanceNamespace: 'shop',
    ...overrides,
  };
}

export function finalizeCall(url: string, overrides: Partial<HookCall> = {}): HookCall {
  const { children: _children, ...call } = preReconcileCall(url, { phase: 'finalize', ...overrides });
  return call;
}
