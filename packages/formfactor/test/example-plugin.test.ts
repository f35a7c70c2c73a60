import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createFormFactorRegistry,
  loadFormFactorPlugin,
  renderInputFor,
  type FormFactorPlugin,
} from '../src/index.ts';
import { BUILT_INS } from './fake-plugins.ts';
import { EMPTY_CONTAINER, IMAGE, INSTANCE } from './running-example.ts';

const TEST_DIR = dirname(fileURLToPath(import.meta.url));
// As an operator would pass it: --form-factor-plugin ../formfactor-statefulset-example/src/index.ts
const SPECIFIER = '../../formfactor-statefulset-example/src/index.ts';

async function loadExample(): Promise<FormFactorPlugin> {
  const loaded = await loadFormFactorPlugin(SPECIFIER, TEST_DIR);
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.plugin;
}

describe('the example StatefulSet plugin, loaded by module specifier', () => {
  it('registers next to the built-ins and is selected by its key', async () => {
    const plugin = await loadExample();
    const created = createFormFactorRegistry({ builtIns: BUILT_INS, plugins: [plugin] });
    if (!created.ok) throw new Error(created.messages.join('; '));
    const { registry } = created;
    expect(registry.names()).toEqual(['deployment', 'knativeService', 'statefulSet']);
    expect(registry.allManagedKinds()).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'v1', kind: 'Service' },
      { apiVersion: 'serving.knative.dev/v1', kind: 'Service' },
      { apiVersion: 'apps/v1', kind: 'StatefulSet' },
    ]);
    expect(registry.resolve({ statefulSet: { replicas: 2 } })).toEqual({
      ok: true,
      formFactor: {
        plugin,
        name: 'statefulSet',
        hookName: 'statefulSet',
        block: { replicas: 2 },
        conditionTypes: ['StatefulSetReady'],
      },
    });
  });

  it('renders through the loaded module', async () => {
    const plugin = await loadExample();
    const children = plugin.render(
      renderInputFor({
        block: { replicas: 2 },
        registration: { name: 'mailer', image: IMAGE },
        instance: INSTANCE,
        container: EMPTY_CONTAINER,
      }),
    );
    const metadata = {
      name: 'mailer-orders',
      namespace: 'shop',
      labels: {
        'app.kubernetes.io/name': 'mailer',
        'app.kubernetes.io/instance': 'orders',
        'app.kubernetes.io/component': 'workload',
        'app.kubernetes.io/part-of': 'scoby-component',
        'app.kubernetes.io/managed-by': 'scoby-controller',
      },
      ownerReferences: [
        {
          apiVersion: 'notify.example.com/v1',
          kind: 'Mailer',
          name: 'orders',
          uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    };
    const selector = {
      'app.kubernetes.io/name': 'mailer',
      'app.kubernetes.io/instance': 'orders',
      'app.kubernetes.io/component': 'workload',
    };
    expect(children).toStrictEqual({
      service: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata,
        spec: { clusterIP: 'None', selector, ports: [] },
      },
      statefulSet: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata,
        spec: {
          serviceName: 'mailer-orders',
          replicas: 2,
          selector: { matchLabels: selector },
          template: {
            metadata: { labels: selector },
            spec: {
              containers: [
                {
                  name: 'adapter',
                  image: IMAGE,
                  terminationMessagePolicy: 'FallbackToLogsOnError',
                  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
                },
              ],
            },
          },
        },
      },
    });
  });
});
