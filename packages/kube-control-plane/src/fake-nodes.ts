/** Nodes that kwok plays the kubelet for: it marks them Ready and runs the pods scheduled there. */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';

export function fakeNode(name: string): Record<string, unknown> {
  const resources = { cpu: '32', memory: '256Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { [KWOK_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': name,
        'node-role.kubernetes.io/agent': '',
        type: 'kwok',
      },
    },
    spec: {},
    // Nodes may carry status on create; kwok keeps it up to date afterwards.
    status: {
      allocatable: resources,
      capacity: resources,
      nodeInfo: {
        architecture: 'amd64',
        operatingSystem: 'linux',
        kubeletVersion: 'fake',
        kubeProxyVersion: 'fake',
      },
      phase: 'Running',
    },
  };
}

interface NodeLike {
  spec?: { taints?: { key?: string }[] };
  status?: { conditions?: { type?: string; status?: string }[] };
}

/** Ready, and without the not-ready taint (added on creation, removed by the node lifecycle controller). */
export function isSchedulableNode(node: unknown): boolean {
  const { spec, status } = node as NodeLike;
  const ready = (status?.conditions ?? []).some(
    (condition) => condition.type === 'Ready' && condition.status === 'True',
  );
  return ready && !(spec?.taints ?? []).some((taint) => taint.key === 'node.kubernetes.io/not-ready');
}
