/**
 * deploy/: what a user applies to install Scoby. The manifests say exactly what the controller may do;
 * test/after-suite/deploy-apply.test.ts applies them (after every other scenario, since on the node
 * container they replace the chart's controller).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployManifests, podSpecOf } from '../src/index.ts';

let manifests: KubeObject[];
beforeAll(async () => {
  manifests = await deployManifests();
});

const find = (kind: string, name: string) =>
  manifests.find((object) => object.kind === kind && object.metadata.name === name);
const ALL_WRITES = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

describe('install manifests', () => {
  it('contain the namespace, service account, roles, bindings and the controller', () => {
    expect(manifests.map((object) => `${object.kind}/${object.metadata.name ?? ''}`)).toEqual([
      'Namespace/scoby-system',
      'ServiceAccount/scoby-controller',
      'ClusterRole/scoby-controller',
      'ClusterRole/scoby-controller-crdregistrations',
      'ClusterRole/scoby-addressable-resolver',
      'ClusterRoleBinding/scoby-controller',
      'ClusterRoleBinding/scoby-controller-crdregistrations',
      'ClusterRoleBinding/scoby-addressable-resolver',
      'Role/scoby-controller',
      'RoleBinding/scoby-controller',
      'Deployment/scoby-controller',
    ]);
  });

  it('grant exactly the verbs the controller uses', () => {
    expect(find('ClusterRole', 'scoby-controller')?.rules).toEqual([
      {
        apiGroups: ['scoby.triggermesh.io'],
        resources: ['crdregistrations'],
        verbs: ['get', 'list', 'watch', 'update', 'patch'],
      },
      {
        apiGroups: ['scoby.triggermesh.io'],
        resources: ['crdregistrations/status'],
        verbs: ['get', 'update', 'patch'],
      },
      {
        apiGroups: ['apiextensions.k8s.io'],
        resources: ['customresourcedefinitions'],
        verbs: ['get', 'list', 'watch'],
      },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ALL_WRITES },
      { apiGroups: [''], resources: ['services'], verbs: ALL_WRITES },
      { apiGroups: ['serving.knative.dev'], resources: ['services'], verbs: ALL_WRITES },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'], verbs: ['create'] },
    ]);
    expect(find('Role', 'scoby-controller')?.rules).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
      },
    ]);
    expect(find('ClusterRole', 'scoby-controller-crdregistrations')?.aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { 'scoby.triggermesh.io/crdregistration': 'true' } }],
    });
    expect(find('ClusterRole', 'scoby-addressable-resolver')?.aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { 'duck.knative.dev/addressable': 'true' } }],
    });
    for (const binding of manifests.filter((object) => object.kind.endsWith('Binding'))) {
      expect(binding.subjects).toEqual([
        { kind: 'ServiceAccount', name: 'scoby-controller', namespace: 'scoby-system' },
      ]);
    }
  });

  it('run two non-root, read-only replicas with probes, metrics and SCOBY_NAMESPACE from the pod', () => {
    const deployment = find('Deployment', 'scoby-controller');
    const pod = podSpecOf(deployment);
    const [container] = pod?.containers as Record<string, unknown>[];
    expect((deployment?.spec as { replicas?: number }).replicas).toBe(2);
    expect(pod?.serviceAccountName).toBe('scoby-controller');
    expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container).toMatchObject({
      args: ['run', '--leader-elect', '--leader-election-mode=active-active', '--metrics-bind-address=:8080'],
      env: [
        { name: 'SCOBY_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'LOG_LEVEL', value: 'info' },
        { name: 'NODE_OPTIONS', value: '--max-old-space-size=256 --max-semi-space-size=4' },
      ],
      ports: [{ name: 'metrics', containerPort: 8080, protocol: 'TCP' }],
      livenessProbe: { httpGet: { path: '/healthz', port: 'metrics' } },
      readinessProbe: { httpGet: { path: '/readyz', port: 'metrics' } },
      resources: { requests: { cpu: '100m', memory: '192Mi' }, limits: { memory: '512Mi' } },
      securityContext: {
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      },
    });
  });
});
