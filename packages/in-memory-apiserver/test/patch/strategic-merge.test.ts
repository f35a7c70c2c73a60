import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch, listStrategy } from '../../src/patch/index.ts';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'd',
    finalizers: ['a', 'b'],
    ownerReferences: [{ uid: 'u1', name: 'o1' }],
    labels: { app: 'x', tier: 'web' },
  },
  spec: {
    template: {
      spec: {
        containers: [
          {
            name: 'main',
            image: 'nginx:1',
            args: ['--a', '--b'],
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
            ports: [{ containerPort: 80, name: 'http' }],
            volumeMounts: [{ mountPath: '/data', name: 'data' }],
          },
          { name: 'sidecar', image: 'envoy' },
        ],
        volumes: [{ name: 'data', emptyDir: {} }],
        imagePullSecrets: [{ name: 'reg' }],
      },
    },
  },
  status: { conditions: [{ type: 'Available', status: 'True' }] },
};

const patch = (body: unknown) => applyStrategicMergePatch(deployment, body);
const podSpec = (result: ReturnType<typeof patch>) =>
  result.ok ? (result.value as typeof deployment).spec.template.spec : undefined;

describe('applyStrategicMergePatch: maps', () => {
  it('merges maps recursively and deletes keys set to null', () => {
    expect(patch({ metadata: { labels: { tier: null, new: 'y' } } })).toEqual({
      ok: true,
      value: { ...deployment, metadata: { ...deployment.metadata, labels: { app: 'x', new: 'y' } } },
    });
  });

  it('$patch: replace replaces a map', () => {
    expect(patch({ metadata: { labels: { $patch: 'replace', only: 'this' } } })).toEqual({
      ok: true,
      value: { ...deployment, metadata: { ...deployment.metadata, labels: { only: 'this' } } },
    });
  });

  it('$patch: delete removes a map', () => {
    const { labels: _labels, ...metadata } = deployment.metadata;
    expect(patch({ metadata: { labels: { $patch: 'delete' } } })).toEqual({
      ok: true,
      value: { ...deployment, metadata },
    });
  });

  it('$patch: merge is the default behaviour', () => {
    expect(patch({ metadata: { labels: { $patch: 'merge', app: 'z' } } })).toEqual({
      ok: true,
      value: { ...deployment, metadata: { ...deployment.metadata, labels: { app: 'z', tier: 'web' } } },
    });
  });

  it('$retainKeys clears keys not listed', () => {
    expect(patch({ metadata: { labels: { $retainKeys: ['app'], extra: 'e' } } })).toEqual({
      ok: true,
      value: { ...deployment, metadata: { ...deployment.metadata, labels: { app: 'x', extra: 'e' } } },
    });
  });

  it('rejects an unknown $patch', () => {
    expect(patch({ metadata: { $patch: 'explode' } })).toEqual({
      ok: false,
      message: 'unknown patch type: explode in map: map[$patch:explode]',
    });
  });

  it('rejects a patch that is not an object', () => {
    expect(patch([1])).toEqual({
      ok: false,
      message: 'json: cannot unmarshal array into Go value of type map[string]interface {}',
    });
  });
});

describe('applyStrategicMergePatch: lists with merge keys', () => {
  it('merges containers by name, keeping unmentioned containers and fields', () => {
    const result = patch({
      spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:2' }] } } },
    });
    expect(podSpec(result)?.containers).toEqual([
      { ...deployment.spec.template.spec.containers[0], image: 'nginx:2' },
      { name: 'sidecar', image: 'envoy' },
    ]);
  });

  it('puts items with a new key before the items the patch does not name (kube-apiserver’s order)', () => {
    const result = patch({
      spec: { template: { spec: { containers: [{ name: 'third', image: 'busybox' }] } } },
    });
    expect(podSpec(result)?.containers.map((c) => c.name)).toEqual(['third', 'main', 'sidecar']);
  });

  it('merges env by name, volumeMounts by mountPath and container ports by containerPort', () => {
    const result = patch({
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'main',
                env: [
                  { name: 'B', value: 'two' },
                  { name: 'C', value: '3' },
                ],
                volumeMounts: [
                  { mountPath: '/data', readOnly: true },
                  { mountPath: '/cache', name: 'cache' },
                ],
                ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443 }],
              },
            ],
          },
        },
      },
    });
    const main = podSpec(result)?.containers[0];
    expect(main?.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'two' },
      { name: 'C', value: '3' },
    ]);
    expect(main?.volumeMounts).toEqual([
      { mountPath: '/data', name: 'data', readOnly: true },
      { mountPath: '/cache', name: 'cache' },
    ]);
    expect(main?.ports).toEqual([
      { containerPort: 80, name: 'http', protocol: 'TCP' },
      { containerPort: 443 },
    ]);
  });

  it('replaces lists without a merge key (args)', () => {
    const result = patch({ spec: { template: { spec: { containers: [{ name: 'main', args: ['--c'] }] } } } });
    expect(podSpec(result)?.containers[0]?.args).toEqual(['--c']);
  });

  it('merges volumes and imagePullSecrets by name, conditions by type, ownerReferences by uid', () => {
    const result = applyStrategicMergePatch(deployment, {
      metadata: { ownerReferences: [{ uid: 'u2', name: 'o2' }] },
      spec: {
        template: {
          spec: { volumes: [{ name: 'cache', emptyDir: {} }], imagePullSecrets: [{ name: 'other' }] },
        },
      },
      status: {
        conditions: [
          { type: 'Available', status: 'False' },
          { type: 'Progressing', status: 'True' },
        ],
      },
    });
    const value = result.ok ? (result.value as typeof deployment) : undefined;
    expect(value?.metadata.ownerReferences).toEqual([
      { uid: 'u2', name: 'o2' },
      { uid: 'u1', name: 'o1' },
    ]);
    expect(value?.spec.template.spec.volumes).toEqual([
      { name: 'cache', emptyDir: {} },
      { name: 'data', emptyDir: {} },
    ]);
    expect(value?.spec.template.spec.imagePullSecrets).toEqual([{ name: 'other' }, { name: 'reg' }]);
    expect(value?.status.conditions).toEqual([
      { type: 'Available', status: 'False' },
      { type: 'Progressing', status: 'True' },
    ]);
  });

  it('$patch: delete removes the item with that key', () => {
    const result = patch({
      spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } },
    });
    expect(podSpec(result)?.containers.map((c) => c.name)).toEqual(['main']);
  });

  it('a $patch: replace item replaces the whole list', () => {
    const result = patch({
      spec: { template: { spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'i' }] } } },
    });
    expect(podSpec(result)?.containers).toEqual([{ name: 'only', image: 'i' }]);
  });

  it('rejects an item without the merge key', () => {
    expect(patch({ spec: { template: { spec: { containers: [{ image: 'nginx' }] } } } })).toEqual({
      ok: false,
      message: 'map: map[image:nginx] does not contain declared merge key: name',
    });
  });

  it('merges finalizers as a set and deletes from it with $deleteFromPrimitiveList', () => {
    expect(patch({ metadata: { finalizers: ['b', 'c'] } })).toEqual({
      ok: true,
      value: { ...deployment, metadata: { ...deployment.metadata, finalizers: ['a', 'b', 'c'] } },
    });
    expect(patch({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } })).toEqual({
      ok: true,
      value: { ...deployment, metadata: { ...deployment.metadata, finalizers: ['b'] } },
    });
  });

  it('tolerates $setElementOrder', () => {
    const result = patch({
      spec: {
        template: { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'main' }] } },
      },
    });
    expect(result).toEqual({ ok: true, value: deployment });
  });

  it('merges Service spec.ports by port', () => {
    const service = { kind: 'Service', spec: { ports: [{ port: 80, targetPort: 8080 }] } };
    expect(
      applyStrategicMergePatch(service, { spec: { ports: [{ port: 80, name: 'http' }, { port: 443 }] } }),
    ).toEqual({
      ok: true,
      value: {
        kind: 'Service',
        spec: { ports: [{ port: 80, targetPort: 8080, name: 'http' }, { port: 443 }] },
      },
    });
  });

  it('does not change its inputs', () => {
    const before = structuredClone(deployment);
    patch({ spec: { template: { spec: { containers: [{ name: 'main', image: 'x' }] } } } });
    expect(deployment).toEqual(before);
  });
});

describe('listStrategy', () => {
  it.each([
    [['spec', 'template', 'spec', 'containers'], { kind: 'mergeByKey', key: 'name' }],
    [['spec', 'containers', '[]', 'ports'], { kind: 'mergeByKey', key: 'containerPort' }],
    [['spec', 'initContainers', '[]', 'ports'], { kind: 'mergeByKey', key: 'containerPort' }],
    [['spec', 'ports'], { kind: 'mergeByKey', key: 'port' }],
    [['spec', 'template', 'spec', 'ports'], { kind: 'replace' }],
    [['spec', 'containers', '[]', 'volumeMounts'], { kind: 'mergeByKey', key: 'mountPath' }],
    [['metadata', 'finalizers'], { kind: 'mergeScalars' }],
    [['spec', 'finalizers'], { kind: 'replace' }],
    [['spec', 'containers', '[]', 'args'], { kind: 'replace' }],
  ])('%j → %j', (path, strategy) => {
    expect(listStrategy(path)).toEqual(strategy);
  });
});
