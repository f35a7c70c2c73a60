/**
 * The Helm chart lints, and renders what its values say: with the defaults exactly the release
 * manifest (less the Namespace, which helm creates) plus the metrics Service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, RELEASE_MANIFEST } from '../../src/paths.ts';
import { CHART, HELM, helmTemplate, identity, objectsOf, run, type KubeObject } from './tools.ts';

const release = objectsOf(readFileSync(join(REPOSITORY_ROOT, RELEASE_MANIFEST), 'utf8'));
const find = (objects: KubeObject[], kind: string, name: string): KubeObject => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (found === undefined) throw new Error(`no ${kind} ${name} among ${objects.map(identity).join(', ')}`);
  return found;
};
type Container = { args: string[]; env: unknown[]; image: string; resources: unknown; ports: unknown[] };
const controller = (objects: KubeObject[]): Container =>
  (
    find(objects, 'Deployment', 'scoby-controller') as unknown as {
      spec: { template: { spec: { containers: Container[] } } };
    }
  ).spec.template.spec.containers[0]!;

const metricsService = (namespace: string, port: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: 'scoby-controller-metrics',
    namespace,
    labels: {
      'app.kubernetes.io/name': 'scoby-controller',
      'app.kubernetes.io/part-of': 'scoby',
      'app.kubernetes.io/component': 'metrics',
    },
  },
  spec: {
    type: 'ClusterIP',
    selector: { 'app.kubernetes.io/name': 'scoby-controller' },
    ports: [{ name: 'metrics', port, targetPort: 'metrics', protocol: 'TCP' }],
  },
});

describe('helm chart deploy/helm/scoby', () => {
  it('passes helm lint --strict', () => {
    const lint = run(HELM, ['lint', CHART, '--strict']);
    expect(lint.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(lint.status).toBe(0);
  });

  it('renders the release manifest with its default values, less the Namespace and the CRD, plus the metrics Service', () => {
    const rendered = helmTemplate('scoby-system');
    const expected = release.filter(
      (object) => !['Namespace', 'CustomResourceDefinition'].includes(object.kind),
    );
    expect(rendered.map(identity).sort()).toEqual(
      [...expected.map(identity), 'Service scoby-system/scoby-controller-metrics'].sort(),
    );
    for (const object of expected) expect(find(rendered, object.kind, object.metadata.name)).toEqual(object);
    expect(find(rendered, 'Service', 'scoby-controller-metrics')).toEqual(
      metricsService('scoby-system', 8080),
    );
  });

  it('puts every namespaced object and the ServiceAccount subjects in the release namespace', () => {
    const rendered = helmTemplate('ops');
    const namespaces = rendered
      .filter((object) => object.metadata.namespace)
      .map((object) => object.metadata.namespace);
    expect(new Set(namespaces)).toEqual(new Set(['ops']));
    const subjects = rendered.flatMap(
      (object) => (object['subjects'] as { namespace: string }[] | undefined) ?? [],
    );
    expect(subjects.length).toBe(4);
    expect(subjects.every((subject) => subject.namespace === 'ops')).toBe(true);
  });

  it('sets the image, replicas, leader election, lease name, log level and metrics port', () => {
    const rendered = helmTemplate(
      'ops',
      'image.repository=registry.example.com/scoby',
      'image.tag=1.2.3',
      'replicas=1',
      'leaderElection.enabled=false',
      'leaderElection.leaseName=scoby-lease',
      'logLevel=debug',
      'metrics.port=9090',
      'metrics.service.port=80',
    );
    const container = controller(rendered);
    expect(container.image).toBe('registry.example.com/scoby:1.2.3');
    expect(
      (find(rendered, 'Deployment', 'scoby-controller') as unknown as { spec: { replicas: number } }).spec
        .replicas,
    ).toBe(1);
    expect(container.args).toEqual([
      'run',
      '--no-leader-elect',
      '--leader-election-lease-name=scoby-lease',
      '--metrics-bind-address=:9090',
    ]);
    expect(container.ports).toEqual([{ name: 'metrics', containerPort: 9090, protocol: 'TCP' }]);
    expect(container.env).toContainEqual({ name: 'LOG_LEVEL', value: 'debug' });
    expect(find(rendered, 'Service', 'scoby-controller-metrics')).toEqual(metricsService('ops', 80));
  });

  it('passes watched namespaces, plugins and extra variables as environment, after the written ones', () => {
    const container = controller(
      helmTemplate(
        'ops',
        'watchNamespaces={shop,billing}',
        'plugins={@acme/scoby-statefulset,/plugins/cron.js}',
        'extraEnv[0].name=CLUSTER_DOMAIN',
        'extraEnv[0].value=example.internal',
      ),
    );
    expect(container.env).toEqual([
      { name: 'SCOBY_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'NODE_OPTIONS', value: '--max-old-space-size=256 --max-semi-space-size=4' },
      { name: 'WORKING_NAMESPACES', value: 'shop,billing' },
      { name: 'SCOBY_FORM_FACTOR_PLUGINS', value: '@acme/scoby-statefulset,/plugins/cron.js' },
      { name: 'CLUSTER_DOMAIN', value: 'example.internal' },
    ]);
  });

  it('sets resources and pod placement', () => {
    const rendered = helmTemplate(
      'ops',
      'resources.requests.cpu=50m',
      'resources.limits.memory=1Gi',
      'nodeSelector.pool=system',
      'tolerations[0].key=dedicated',
      'tolerations[0].operator=Exists',
      'podAnnotations.team=platform',
    );
    const { resources } = controller(rendered);
    expect(resources).toEqual({ requests: { cpu: '50m', memory: '192Mi' }, limits: { memory: '1Gi' } });
    const pod = (
      find(rendered, 'Deployment', 'scoby-controller') as unknown as {
        spec: { template: { metadata: { annotations: unknown }; spec: Record<string, unknown> } };
      }
    ).spec.template;
    expect(pod.metadata.annotations).toEqual({ team: 'platform' });
    expect(pod.spec['nodeSelector']).toEqual({ pool: 'system' });
    expect(pod.spec['tolerations']).toEqual([{ key: 'dedicated', operator: 'Exists' }]);
    expect(pod.spec['affinity']).toBeUndefined();
  });

  it('renders the ServiceMonitor only when asked, and refuses it without the metrics Service', () => {
    expect(helmTemplate('ops').filter((object) => object.kind === 'ServiceMonitor')).toEqual([]);
    const rendered = helmTemplate(
      'ops',
      'metrics.serviceMonitor.enabled=true',
      'metrics.serviceMonitor.labels.release=prom',
    );
    expect(find(rendered, 'ServiceMonitor', 'scoby-controller')).toEqual({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      metadata: {
        name: 'scoby-controller',
        namespace: 'ops',
        labels: {
          'app.kubernetes.io/name': 'scoby-controller',
          'app.kubernetes.io/part-of': 'scoby',
          release: 'prom',
        },
      },
      spec: {
        selector: {
          matchLabels: {
            'app.kubernetes.io/name': 'scoby-controller',
            'app.kubernetes.io/component': 'metrics',
          },
        },
        endpoints: [{ port: 'metrics', path: '/metrics', interval: '30s' }],
      },
    });
    const refused = run(HELM, [
      'template',
      'scoby',
      CHART,
      '--set',
      'metrics.serviceMonitor.enabled=true',
      '--set',
      'metrics.service.enabled=false',
    ]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('metrics.serviceMonitor.enabled needs metrics.service.enabled');
    expect(helmTemplate('ops', 'metrics.service.enabled=false').map(identity)).not.toContain(
      'Service ops/scoby-controller-metrics',
    );
  });

  it('grants the kinds of plugin form factors through an aggregated ClusterRole', () => {
    expect(helmTemplate('ops').map(identity)).not.toContain('ClusterRole scoby-controller-plugins');
    const rendered = helmTemplate(
      'ops',
      'pluginRules[0].apiGroups={apps}',
      'pluginRules[0].resources={statefulsets}',
      'pluginRules[0].verbs={get,list,watch,create,update,patch,delete}',
    );
    expect(find(rendered, 'ClusterRole', 'scoby-controller-plugins')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: 'scoby-controller-plugins',
        labels: { 'app.kubernetes.io/part-of': 'scoby', 'scoby.triggermesh.io/crdregistration': 'true' },
      },
      rules: [
        {
          apiGroups: ['apps'],
          resources: ['statefulsets'],
          verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
        },
      ],
    });
  });
});
