/**
 * Requests of the measured side (the controller, the floor or a peer), by verb and resource, from
 * kube-apiserver's own metrics. apiserver_request_total has no user label, and in the same window
 * kube-controller-manager, kube-scheduler and kwok write Deployment status, ReplicaSets, pods and
 * Events, so it cannot tell the measured side's requests from the cluster's. API Priority and Fairness
 * can: one FlowSchema per verb and resource matches only the measured ServiceAccounts, and
 * apiserver_flowcontrol_dispatched_requests_total counts each FlowSchema's requests. Catch-all
 * FlowSchemas take the measured side's other requests, so the total is exact; the harness (the admin,
 * system:masters) is classified as `exempt` and never counted.
 */
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] as const;
/** The resources a Scoby-like controller touches; anything else lands in `other`. */
const RESOURCES = [
  'mailers',
  'mailers/status',
  'deployments',
  'services',
  'events',
  'selfsubjectaccessreviews',
  'crdregistrations',
  'crdregistrations/status',
  'customresourcedefinitions',
  'configmaps',
  'leases',
  'pods',
] as const;
const PREFIX = 'bench-';
/** Before the built-in `service-accounts` (9000) and `global-default` (9900); the admin is `exempt` (1). */
const SPECIFIC_PRECEDENCE = 1000;
const CATCH_ALL_PRECEDENCE = 1001;

export interface MeasuredSubject {
  namespace: string;
  name: string;
}

/** `VERB resource` of each FlowSchema this module creates, by its name. */
function flowLabels(): Map<string, string> {
  const labels = new Map<string, string>();
  for (const verb of VERBS) {
    for (const resource of RESOURCES) {
      labels.set(`${PREFIX}${verb}-${resource.replace('/', '-')}`, `${verb.toUpperCase()} ${resource}`);
    }
  }
  labels.set(`${PREFIX}other-resource`, 'other resource requests');
  labels.set(`${PREFIX}non-resource`, 'non-resource (discovery, /version)');
  return labels;
}

const FLOW_LABELS = flowLabels();

function flowSchema(
  name: string,
  precedence: number,
  subjects: MeasuredSubject[],
  rule: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      matchingPrecedence: precedence,
      // Where kube-apiserver's own `service-accounts` FlowSchema puts every other ServiceAccount.
      priorityLevelConfiguration: { name: 'workload-low' },
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: subjects.map((subject) => ({ kind: 'ServiceAccount', serviceAccount: subject })),
          ...rule,
        },
      ],
    },
  } as KubeObject;
}

/** The FlowSchemas that sort the subjects' requests by verb and resource. */
export function measuringFlowSchemas(subjects: MeasuredSubject[]): KubeObject[] {
  const any = { apiGroups: ['*'], clusterScope: true, namespaces: ['*'] };
  const schemas: KubeObject[] = [];
  for (const verb of VERBS) {
    for (const resource of RESOURCES) {
      schemas.push(
        flowSchema(`${PREFIX}${verb}-${resource.replace('/', '-')}`, SPECIFIC_PRECEDENCE, subjects, {
          resourceRules: [{ ...any, verbs: [verb], resources: [resource] }],
        }),
      );
    }
  }
  schemas.push(
    flowSchema(`${PREFIX}other-resource`, CATCH_ALL_PRECEDENCE, subjects, {
      resourceRules: [{ ...any, verbs: ['*'], resources: ['*'] }],
    }),
    flowSchema(`${PREFIX}non-resource`, CATCH_ALL_PRECEDENCE, subjects, {
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    }),
  );
  return schemas;
}

/** kube-apiserver's /metrics, read with the given (admin) credentials. */
export async function scrapeMetrics(kubeConfig: KubeConfig): Promise<string> {
  const server = new URL(kubeConfig.getCurrentCluster()?.server ?? '');
  const options: https.RequestOptions = {
    hostname: server.hostname,
    port: server.port,
    path: '/metrics',
    method: 'GET',
    headers: { Accept: 'text/plain' },
  };
  await kubeConfig.applyToHTTPSOptions(options);
  return new Promise((resolve, reject) => {
    const request = https.request(options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode === 200) resolve(text);
        else reject(new Error(`GET /metrics answered ${response.statusCode}: ${text.slice(0, 300)}`));
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/** Requests dispatched so far per `VERB resource` of the measured subjects. */
export function measuredRequestCounts(metricsText: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of metricsText.split('\n')) {
    if (!line.startsWith('apiserver_flowcontrol_dispatched_requests_total{')) continue;
    const flowSchema = /flow_schema="([^"]*)"/.exec(line)?.[1];
    const label = flowSchema === undefined ? undefined : FLOW_LABELS.get(flowSchema);
    if (label === undefined) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    counts.set(label, (counts.get(label) ?? 0) + value);
  }
  return counts;
}

/** The counts of `after` less those of `before`, without the rows that did not change. */
export function countsBetween(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const difference = new Map<string, number>();
  for (const [label, value] of after) {
    const delta = value - (before.get(label) ?? 0);
    if (delta > 0) difference.set(label, delta);
  }
  return difference;
}
