/** The running example of docs/spec/children-and-status.md: registration mailer, instance shop/orders. */
import type { RenderedContainer } from '@scoby/kube-objects';
import type { InstanceIdentity } from '../src/index.ts';

export const IMAGE = 'registry.example.com/mailer-adapter:1.4.2';

export const INSTANCE: InstanceIdentity = {
  apiVersion: 'notify.example.com/v1',
  kind: 'Mailer',
  namespace: 'shop',
  name: 'orders',
  uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
};

export const EMPTY_CONTAINER: RenderedContainer = { env: [], volumes: [], volumeMounts: [] };

export const ORDERS_CONTAINER: RenderedContainer = {
  env: [{ name: 'MAILER_SMTP_HOST', value: 'smtp.example.com' }],
  volumes: [{ name: 'tls', secret: { secretName: 'mailer-tls' } }],
  volumeMounts: [{ name: 'tls', mountPath: '/etc/tls' }],
};
