/**
 * The chart's values: the schema refuses wrong types and unknown keys, every flag of `scoby run --help`
 * is reachable, unsafe combinations are refused with their reason, and a matrix of values files passes
 * `helm lint --strict` and renders.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../src/paths.ts';
import { VALUES_MATRIX, writeValuesFile } from './values-matrix.ts';
import { CHART, HELM, helmTemplate, identity, run, succeed, type KubeObject } from './tools.ts';

const SCOBY = join(REPOSITORY_ROOT, 'apps/controller/bin/scoby.js');
const README = readFileSync(join(CHART, 'README.md'), 'utf8');

type Pod = {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, unknown> & {
    containers: (Record<string, unknown> & { args: string[]; image: string })[];
  };
};
const deployment = (objects: KubeObject[]) => {
  const found = objects.find((object) => object.kind === 'Deployment');
  if (found === undefined) throw new Error(`no Deployment among ${objects.map(identity).join(', ')}`);
  return found as KubeObject & {
    spec: Record<string, unknown> & { selector: unknown; strategy?: unknown; template: Pod };
  };
};
const pod = (objects: KubeObject[]) => deployment(objects).spec.template;
const args = (...set: string[]) => pod(helmTemplate('ops', ...set)).spec.containers[0]!.args;

/** `helm template` that must fail; its error. */
function refused(...set: string[]): string {
  const result = run(HELM, ['template', 'scoby', CHART, ...set.flatMap((value) => ['--set', value])]);
  expect(result.status, result.stdout).toBe(1);
  return result.stderr;
}

/** How each flag of `scoby run --help` is reached from the chart: values and the argument they render,
 *  or extraArgs, or refused. A flag the help lists and this table does not fails the test. */
const FLAGS: Record<string, { set: string[]; arg: string } | 'extraArgs' | 'refused'> = {
  '--kubeconfig': 'extraArgs',
  '--concurrency': { set: ['concurrency=3'], arg: '--concurrency=3' },
  '--form-factor-plugin': { set: ['plugins={/plugins/cron.js}'], arg: '' },
  '--hook-module': { set: ['hookModules={@acme/mailer-hook}'], arg: '' },
  '--leader-elect': { set: [], arg: '--leader-elect' },
  '--leader-election-mode': {
    set: ['replicas=3', 'leaderElection.mode=leader'],
    arg: '--leader-election-mode=leader',
  },
  '--no-leader-elect': { set: ['replicas=1', 'leaderElection.enabled=false'], arg: '--no-leader-elect' },
  '--leader-election-lease-name': {
    set: ['leaderElection.leaseName=lease'],
    arg: '--leader-election-lease-name=lease',
  },
  '--metrics-bind-address': { set: ['metrics.port=9090'], arg: '--metrics-bind-address=:9090' },
  '--resync-period': { set: ['resyncPeriod=1h'], arg: '--resync-period=1h' },
  '--hook-address-refresh': { set: ['hookAddressRefresh=30s'], arg: '--hook-address-refresh=30s' },
  '--kube-api-qps': { set: ['apiRateLimit.qps=20'], arg: '--kube-api-qps=20' },
  '--kube-api-burst': { set: ['apiRateLimit.burst=30'], arg: '--kube-api-burst=30' },
  '--api-request-timeout': { set: ['timeouts.apiRequest=10s'], arg: '--api-request-timeout=10s' },
  '--reconcile-timeout': { set: ['timeouts.reconcile=2m'], arg: '--reconcile-timeout=2m' },
  '--watch-silence-timeout': { set: ['timeouts.watchSilence=1m30s'], arg: '--watch-silence-timeout=1m30s' },
  '--log-level': { set: ['logLevel=debug'], arg: '' },
  '--log-format': { set: ['logFormat=console'], arg: '--log-format=console' },
  '--zap-log-level': 'extraArgs',
  '--zap-devel': 'extraArgs',
  '--zap-encoder': 'extraArgs',
  '--graceful-shutdown-timeout': {
    set: ['timeouts.gracefulShutdown=20s'],
    arg: '--graceful-shutdown-timeout=20s',
  },
  '--embedded': 'refused',
  '--kubeconfig-out': 'refused',
  '--cluster': 'refused',
  '--sample': 'refused',
};

describe('chart values', () => {
  it('the schema refuses a wrong type, a value outside its enum or range, and an unknown key', () => {
    expect(refused('replicas=two')).toContain("at '/replicas': got string, want integer");
    expect(refused('replica=1')).toContain("additional properties 'replica' not allowed");
    expect(refused('image.pullPolicy=Sometimes')).toContain("at '/image/pullPolicy'");
    expect(refused('logLevel=verbose')).toContain("at '/logLevel'");
    expect(refused('concurrency=0')).toContain("at '/concurrency'");
    expect(refused('timeouts.reconcile=5 minutes')).toContain("at '/timeouts/reconcile'");
    expect(refused('serviceAccount.nmae=x')).toContain("additional properties 'nmae' not allowed");
  });

  it('reaches every flag of `scoby run --help`, through its value or extraArgs', () => {
    const help = succeed(process.execPath, [SCOBY, 'run', '--help']);
    const flags = [...help.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((match) => match[1]!);
    expect(flags.length).toBeGreaterThan(15);
    expect(flags.filter((flag) => flag !== '--help').sort()).toEqual(Object.keys(FLAGS).sort());
    for (const [flag, reach] of Object.entries(FLAGS)) {
      expect(README, `the chart's README lists ${flag}`).toContain(`\`${flag}\``);
      if (reach === 'refused') {
        expect(refused(`extraArgs={${flag}}`)).toContain(`extraArgs: ${flag} is refused`);
      } else if (reach === 'extraArgs') {
        expect(args(`extraArgs={${flag}=x}`)).toContain(`${flag}=x`);
      } else if (reach.arg !== '') {
        expect(args(...reach.set)).toContain(reach.arg);
      }
    }
    const container = pod(
      helmTemplate(
        'ops',
        'plugins={/plugins/cron.js}',
        'hookModules={@acme/mailer-hook,/hooks/quota.js}',
        'logLevel=debug',
      ),
    ).spec.containers[0]!;
    expect(container['env']).toContainEqual({ name: 'SCOBY_FORM_FACTOR_PLUGINS', value: '/plugins/cron.js' });
    expect(container['env']).toContainEqual({
      name: 'SCOBY_HOOK_MODULES',
      value: '@acme/mailer-hook,/hooks/quota.js',
    });
    expect(container['env']).toContainEqual({ name: 'LOG_LEVEL', value: 'debug' });
    // The defaults add no flag but the mode, so that deploy/20-deployment.yaml says which one runs.
    expect(args()).toEqual([
      'run',
      '--leader-elect',
      '--leader-election-mode=active-active',
      '--metrics-bind-address=:8080',
    ]);
    expect(args('replicas=1', 'leaderElection.enabled=false')).toEqual([
      'run',
      '--no-leader-elect',
      '--metrics-bind-address=:8080',
    ]);
  });

  it('refuses unsafe combinations, saying why', () => {
    expect(refused('leaderElection.enabled=false')).toContain(
      'leaderElection.enabled=false with replicas=2: every replica would reconcile every instance at once',
    );
    expect(refused('leaderElection.mode=sharded')).toContain(
      'leaderElection.mode=sharded: must be leader (one replica reconciles, the others stand by) or active-active (the replicas share the registrations)',
    );
    expect(refused('leaderElection.mode=Leader')).toContain('leaderElection.mode=Leader: must be leader');
    expect(refused('leaderElection.mode=')).toContain('leaderElection.mode=: must be leader');
    // Without leader election the mode is not rendered: the default active-active does not refuse it.
    expect(args('replicas=1', 'leaderElection.enabled=false', 'leaderElection.mode=active-active')).toEqual([
      'run',
      '--no-leader-elect',
      '--metrics-bind-address=:8080',
    ]);
    expect(refused('extraArgs={--leader-election-mode=active-active}')).toContain(
      'extraArgs: --leader-election-mode is refused: set the value leaderElection.mode instead',
    );
    expect(refused('podDisruptionBudget.enabled=true', 'podDisruptionBudget.minAvailable=2')).toContain(
      'podDisruptionBudget.minAvailable=2 with replicas=2: no pod could ever be evicted',
    );
    expect(refused('podDisruptionBudget.enabled=true', 'replicas=1')).toContain(
      'podDisruptionBudget.minAvailable=1 with replicas=1',
    );
    expect(refused('podDisruptionBudget.enabled=true', 'podDisruptionBudget.maxUnavailable=0')).toContain(
      'podDisruptionBudget.maxUnavailable=0',
    );
    expect(refused('podDisruptionBudget.enabled=true', 'podDisruptionBudget.maxUnavailable=0%')).toContain(
      'podDisruptionBudget.maxUnavailable=0%',
    );
    expect(refused('podDisruptionBudget.enabled=true', 'podDisruptionBudget.minAvailable=100%')).toContain(
      'podDisruptionBudget.minAvailable=100%',
    );
    expect(
      refused(
        'podDisruptionBudget.enabled=true',
        'podDisruptionBudget.minAvailable=1',
        'podDisruptionBudget.maxUnavailable=1',
      ),
    ).toContain('set minAvailable or maxUnavailable, not both');
    expect(refused('extraArgs={--concurrency=3}')).toContain(
      'extraArgs: --concurrency is refused: set the value concurrency instead',
    );
    expect(refused('extraArgs={--no-leader-elect}')).toContain(
      'set the value leaderElection.enabled instead',
    );
    expect(refused('metrics.serviceMonitor.enabled=true', 'metrics.service.enabled=false')).toContain(
      'metrics.serviceMonitor.enabled needs metrics.service.enabled',
    );
    for (const row of [
      '`leaderElection.enabled=false` with `replicas` > 1',
      '`leaderElection.mode` other than `leader` or `active-active`',
      '`podDisruptionBudget.maxUnavailable=0` or `0%`',
      '`podDisruptionBudget.minAvailable=100%`',
      'both set',
      'a development flag',
      '`metrics.serviceMonitor.enabled` without',
    ])
      expect(README).toContain(row);
  });

  it('sets the service account, image digest and pull secrets, security contexts and pod placement', () => {
    const rendered = helmTemplate(
      'ops',
      'serviceAccount.create=false',
      'serviceAccount.name=platform-scoby',
      'image.digest=sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      'imagePullSecrets[0].name=regcred',
      'securityContext.runAsUser=2000',
      'containerSecurityContext.readOnlyRootFilesystem=true',
      'priorityClassName=system-cluster-critical',
      'podLabels.team=platform',
      'deploymentAnnotations.owner=platform',
      'strategy.type=Recreate',
      'terminationGracePeriodSeconds=60',
      'topologySpreadConstraints[0].maxSkew=1',
      'topologySpreadConstraints[0].topologyKey=kubernetes.io/hostname',
      'topologySpreadConstraints[0].whenUnsatisfiable=ScheduleAnyway',
      'topologySpreadConstraints[0].labelSelector.matchLabels.app\\.kubernetes\\.io/name=scoby-controller',
      'volumes[0].name=plugins',
      'volumes[0].configMap.name=scoby-plugins',
      'volumeMounts[0].name=plugins',
      'volumeMounts[0].mountPath=/plugins',
      'revisionHistoryLimit=0',
      'hostAliases[0].ip=10.0.0.10',
      'hostAliases[0].hostnames={hooks.internal}',
      'livenessProbe.periodSeconds=20',
      'dnsPolicy=None',
      'dnsConfig.nameservers={10.0.0.53}',
      'enableServiceLinks=false',
    );
    expect(rendered.map(identity)).not.toContain('ServiceAccount ops/scoby-controller');
    expect(rendered.filter((object) => object.kind === 'ServiceAccount')).toEqual([]);
    const subjects = rendered.flatMap((object) => (object['subjects'] as unknown[] | undefined) ?? []);
    expect(subjects).toHaveLength(4);
    for (const subject of subjects)
      expect(subject).toEqual({ kind: 'ServiceAccount', name: 'platform-scoby', namespace: 'ops' });
    const { metadata, spec } = pod(rendered);
    expect(spec['serviceAccountName']).toBe('platform-scoby');
    expect(spec.containers[0]!.image).toBe(
      'scoby-controller@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    );
    expect(spec['imagePullSecrets']).toEqual([{ name: 'regcred' }]);
    expect(spec['securityContext']).toEqual({
      runAsNonRoot: true,
      runAsUser: 2000,
      runAsGroup: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(spec.containers[0]!['securityContext']).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(spec['priorityClassName']).toBe('system-cluster-critical');
    expect(spec['terminationGracePeriodSeconds']).toBe(60);
    expect(spec['topologySpreadConstraints']).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'scoby-controller' } },
      },
    ]);
    expect(spec['volumes']).toEqual([{ name: 'plugins', configMap: { name: 'scoby-plugins' } }]);
    expect(spec.containers[0]!['volumeMounts']).toEqual([{ name: 'plugins', mountPath: '/plugins' }]);
    expect(metadata.labels).toEqual({
      'app.kubernetes.io/name': 'scoby-controller',
      'app.kubernetes.io/part-of': 'scoby',
      team: 'platform',
    });
    const scoby = deployment(rendered);
    expect(scoby.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'scoby-controller' } });
    expect(scoby.metadata['annotations']).toEqual({ owner: 'platform' });
    expect(scoby.spec.strategy).toEqual({ type: 'Recreate' });
    expect(scoby.spec['revisionHistoryLimit']).toBe(0);
    expect(spec['dnsPolicy']).toBe('None');
    expect(spec['dnsConfig']).toEqual({ nameservers: ['10.0.0.53'] });
    expect(spec['enableServiceLinks']).toBe(false);
    expect(spec['hostAliases']).toEqual([{ ip: '10.0.0.10', hostnames: ['hooks.internal'] }]);
    expect(spec.containers[0]!['livenessProbe']).toEqual({
      httpGet: { path: '/healthz', port: 'metrics' },
      initialDelaySeconds: 15,
      periodSeconds: 20,
    });

    const annotated = helmTemplate(
      'ops',
      'serviceAccount.annotations.iam\\.gke\\.io/gcp-service-account=x',
      'serviceAccount.labels.team=platform',
    );
    const account = annotated.find((object) => object.kind === 'ServiceAccount');
    expect(account?.metadata['annotations']).toEqual({ 'iam.gke.io/gcp-service-account': 'x' });
    expect(account?.metadata['labels']).toEqual({
      'app.kubernetes.io/name': 'scoby-controller',
      'app.kubernetes.io/part-of': 'scoby',
      team: 'platform',
    });
  });

  it('labels and annotates the metrics Service and the ServiceMonitor, and tunes its endpoint', () => {
    const rendered = helmTemplate(
      'ops',
      'metrics.service.labels.team=platform',
      'metrics.service.annotations.owner=platform',
      'metrics.serviceMonitor.enabled=true',
      'metrics.serviceMonitor.scrapeTimeout=10s',
      'metrics.serviceMonitor.honorLabels=true',
      'metrics.serviceMonitor.annotations.owner=platform',
      'metrics.serviceMonitor.endpointAdditionalProperties.metricRelabelings[0].action=drop',
    );
    const service = rendered.find((object) => object.kind === 'Service');
    expect(service?.metadata['labels']).toMatchObject({
      'app.kubernetes.io/component': 'metrics',
      team: 'platform',
    });
    expect(service?.metadata['annotations']).toEqual({ owner: 'platform' });
    const monitor = rendered.find((object) => object.kind === 'ServiceMonitor');
    expect(monitor?.metadata['annotations']).toEqual({ owner: 'platform' });
    expect((monitor?.['spec'] as { endpoints: unknown[] }).endpoints).toEqual([
      {
        port: 'metrics',
        path: '/metrics',
        interval: '30s',
        scrapeTimeout: '10s',
        honorLabels: true,
        metricRelabelings: [{ action: 'drop' }],
      },
    ]);
  });

  it('puts commonLabels on every object and on the pods, never in the selector, and refuses the labels the chart sets', () => {
    const rendered = helmTemplate(
      'ops',
      'commonLabels.env=prod',
      'pluginRules[0].verbs={get}',
      'podDisruptionBudget.enabled=true',
      'metrics.serviceMonitor.enabled=true',
    );
    expect(rendered.map(identity)).toContain('PodDisruptionBudget ops/scoby-controller');
    expect(rendered.map(identity)).toContain('ClusterRole scoby-controller-plugins');
    expect(
      rendered.filter((object) => (object.metadata['labels'] as Record<string, string>)['env'] !== 'prod'),
    ).toEqual([]);
    const scoby = deployment(rendered);
    expect(scoby.spec.template.metadata.labels['env']).toBe('prod');
    expect(scoby.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'scoby-controller' } });
    expect(refused('commonLabels.app\\.kubernetes\\.io/name=x')).toContain(
      "invalid propertyName 'app.kubernetes.io/name'",
    );
    expect(refused('podLabels.app\\.kubernetes\\.io/part-of=x')).toContain(
      "invalid propertyName 'app.kubernetes.io/part-of'",
    );
  });

  it('renders a PodDisruptionBudget only when enabled: minAvailable 1 unless told otherwise', () => {
    expect(helmTemplate('ops').map(identity)).not.toContain('PodDisruptionBudget ops/scoby-controller');
    const budget = (...set: string[]) =>
      helmTemplate('ops', 'podDisruptionBudget.enabled=true', ...set).find(
        (object) => object.kind === 'PodDisruptionBudget',
      );
    expect(budget()).toEqual({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: {
        name: 'scoby-controller',
        namespace: 'ops',
        labels: { 'app.kubernetes.io/name': 'scoby-controller', 'app.kubernetes.io/part-of': 'scoby' },
      },
      spec: { selector: { matchLabels: { 'app.kubernetes.io/name': 'scoby-controller' } }, minAvailable: 1 },
    });
    expect(budget('replicas=3', 'podDisruptionBudget.minAvailable=2')?.['spec']).toMatchObject({
      minAvailable: 2,
    });
    expect(budget('podDisruptionBudget.maxUnavailable=50%')?.['spec']).toMatchObject({
      maxUnavailable: '50%',
    });
  });
});

describe('the values matrix', () => {
  for (const name of Object.keys(VALUES_MATRIX)) {
    it(`${name}: helm lint --strict and helm template`, () => {
      const file = writeValuesFile(name);
      const lint = run(HELM, ['lint', CHART, '--strict', '-f', file]);
      expect(lint.stdout + lint.stderr).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(lint.status).toBe(0);
      const rendered = succeed(HELM, ['template', 'scoby', CHART, '-n', 'ops', '-f', file]);
      expect(rendered).toContain('kind: Deployment');
    });
  }
});
