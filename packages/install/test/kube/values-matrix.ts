/** Values files a cluster admin would write: each lints strictly, renders, and kube-apiserver accepts
 *  what it renders (chart-values.test.ts, lifecycle.test.ts). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export const VALUES_MATRIX: Record<string, Record<string, unknown>> = {
  defaults: {},
  'one replica without leader election': { replicas: 1, leaderElection: { enabled: false } },
  'three replicas, active-active, budget and spread': {
    replicas: 3,
    leaderElection: { enabled: true, mode: 'active-active', leaseName: '' },
    podDisruptionBudget: { enabled: true, minAvailable: 2 },
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'scoby-controller' } },
      },
    ],
    priorityClassName: 'system-cluster-critical',
  },
  'everything set': {
    image: { repository: 'registry.example.com/scoby', tag: '1.2.3', pullPolicy: 'Always' },
    imagePullSecrets: [{ name: 'regcred' }],
    concurrency: 4,
    timeouts: { apiRequest: '10s', reconcile: '2m', watchSilence: '5m', gracefulShutdown: '20s' },
    resyncPeriod: '1h',
    hookAddressRefresh: '30s',
    watchNamespaces: ['shop', 'billing'],
    plugins: ['/plugins/cron.js'],
    pluginRules: [
      { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['get', 'list', 'watch', 'create'] },
    ],
    logLevel: 'debug',
    logFormat: 'json',
    extraArgs: ['--zap-encoder=json'],
    extraEnv: [{ name: 'CLUSTER_DOMAIN', value: 'example.internal' }],
    serviceAccount: {
      create: true,
      name: 'scoby',
      annotations: { 'iam.gke.io/gcp-service-account': 'x' },
      labels: { team: 'platform' },
    },
    resources: { requests: { cpu: '200m', memory: '256Mi' }, limits: { memory: '1Gi' } },
    metrics: {
      port: 9090,
      service: { enabled: true, port: 80, labels: { team: 'platform' }, annotations: { owner: 'platform' } },
      serviceMonitor: {
        enabled: true,
        interval: '15s',
        scrapeTimeout: '10s',
        honorLabels: true,
        labels: { release: 'prom' },
        annotations: { owner: 'platform' },
        endpointAdditionalProperties: {
          metricRelabelings: [{ action: 'drop', sourceLabels: ['__name__'], regex: 'nodejs_.*' }],
        },
      },
    },
    dnsPolicy: 'ClusterFirst',
    commonLabels: { env: 'prod' },
    enableServiceLinks: false,
    podDisruptionBudget: { enabled: true, maxUnavailable: 1 },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
    deploymentAnnotations: { owner: 'platform' },
    podLabels: { team: 'platform' },
    podAnnotations: { 'prometheus.io/scrape': 'false' },
    terminationGracePeriodSeconds: 40,
    nodeSelector: { pool: 'system' },
    tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['system'] }] }],
        },
      },
    },
    volumes: [{ name: 'plugins', configMap: { name: 'scoby-plugins' } }],
    volumeMounts: [{ name: 'plugins', mountPath: '/plugins', readOnly: true }],
    revisionHistoryLimit: 3,
    livenessProbe: { httpGet: { path: '/healthz', port: 'metrics' }, periodSeconds: 20, failureThreshold: 5 },
    readinessProbe: { httpGet: { path: '/readyz', port: 'metrics' }, periodSeconds: 10 },
    hostAliases: [{ ip: '10.0.0.10', hostnames: ['hooks.internal'] }],
    dnsConfig: { options: [{ name: 'ndots', value: '2' }] },
  },
  'existing service account, pinned digest': {
    serviceAccount: { create: false, name: 'platform-scoby' },
    image: { digest: 'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' },
  },
};

export function writeValuesFile(name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'scoby-values-')), 'values.yaml');
  writeFileSync(file, stringify(VALUES_MATRIX[name]));
  return file;
}
