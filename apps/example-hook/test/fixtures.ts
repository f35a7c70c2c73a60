import type { KubeObject } from '@scoby/kube-objects';
import type { HookCall } from '@scoby/hooks-v1';

export const instance: KubeObject = {
  apiVersion: 'notify.example.com/v1',
  kind: 'Mailer',
  metadata: { name: 'orders', namespace: 'shop', finalizers: ['scoby.triggermesh.io/finalizer'] },
  spec: { smtp: { host: 'mail.internal' } },
  status: {
    observedGeneration: 2,
    annotations: { kept: 'yes' },
    conditions: [
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'UNKNOWN',
        message: '',
        lastTransitionTime: '2025-03-02T10:15:58Z',
      },
      {
        type: 'HookChecked',
        status: 'Unknown',
        reason: 'UNKNOWN',
        message: '',
        lastTransitionTime: '2025-03-02T10:15:58Z',
      },
    ],
  },
};

export const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'mailer-orders', namespace: 'shop' },
  spec: {
    replicas: 1,
    template: {
      spec: {
        containers: [
          { name: 'sidecar', image: 'sidecar:1' },
          { name: 'adapter', image: 'mailer:1', env: [{ name: 'MAILER_SMTP_HOST', value: 'mail.internal' }] },
        ],
      },
    },
  },
};

export const service: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'mailer-orders', namespace: 'shop' },
  spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
};

/** A Deployment like `deployment` whose adapter container has these env vars. */
export function deploymentWithAdapterEnv(env: unknown[]): KubeObject {
  const copy = structuredClone(deployment);
  const spec = copy.spec as { template: { spec: { containers: { env?: unknown[] }[] } } };
  const adapter = spec.template.spec.containers[1];
  if (adapter) adapter.env = env;
  return copy;
}

export function call(url: string, phase: HookCall['phase'], overrides: Partial<HookCall> = {}): HookCall {
  return {
    url,
    timeoutMs: 2000,
    phase,
    formFactor: 'deployment',
    object: instance,
    ...(phase === 'pre-reconcile' ? { children: { deployment, service } } : {}),
    managedKinds: [
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'v1', kind: 'Service' },
    ],
    instanceNamespace: 'shop',
    ...overrides,
  };
}
