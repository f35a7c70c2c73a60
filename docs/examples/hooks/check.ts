import assert from 'node:assert/strict';
import { createHookClient, startHookServer, type KubeObject } from '@scoby/hooks-v1';
import { preReconcile } from './handlers.js';

const hook = await startHookServer({ port: 0, preReconcile });
const client = createHookClient();
const instance: KubeObject = {
  apiVersion: 'notify.example.com/v1alpha1',
  kind: 'Mailer',
  metadata: { name: 'orders', namespace: 'shop', uid: '5a8b3c1e-9d2f-4e7a-b6c0-1f2e3d4c5b6a' },
  spec: { sender: 'orders@example.com' },
  status: {},
};
const answer = await client.call({
  url: hook.url,
  timeoutMs: 5000,
  phase: 'pre-reconcile',
  formFactor: 'deployment',
  object: instance, // the instance as Scoby sends it
  children: {}, // e.g. { deployment, service }
  managedKinds: [
    { apiVersion: 'apps/v1', kind: 'Deployment' },
    { apiVersion: 'v1', kind: 'Service' },
  ],
  instanceNamespace: 'shop',
});
// answer.ok with answer.object / answer.children as Scoby would take them,
// or answer.ok === false with the exact message Scoby would report
assert.deepEqual(answer, {
  ok: true,
  object: {
    status: {
      conditions: [{ type: 'QuotaChecked', status: 'True', reason: 'WithinQuota', message: '' }],
    },
  },
});
client.close();
await hook.close();
console.log('the hook answers as Scoby expects');
