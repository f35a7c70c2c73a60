/**
 * Questions asked from inside the cluster (the node provider): a one-shot pod of the greeter-env image
 * (it has Node.js) runs a script that prints one JSON document, which the suite reads from the pod's log.
 */
import type { KubeObject } from '@scoby/kube-objects';
import type { ClusterHandle } from './handle.ts';

export const CLIENT_IMAGE = 'scoby.local/greeter-env:dev';

/** The answer of `fetch(url)` seen from a pod: status and body parsed as JSON when it is JSON. */
export interface FetchedFromPod {
  status: number;
  body: unknown;
}

/** Runs `script` (an ES module body that prints one JSON document) in a new pod and returns that document. */
export async function runInPod(
  cluster: ClusterHandle,
  namespace: string,
  name: string,
  script: string,
): Promise<unknown> {
  await cluster.apply({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: {
      restartPolicy: 'Never',
      containers: [
        {
          name: 'client',
          image: CLIENT_IMAGE,
          imagePullPolicy: 'Never',
          command: ['node', '--input-type=module', '-e', script],
        },
      ],
    },
  });
  const pod = await cluster.waitForObject('v1', 'Pod', namespace, name, 'to finish', (object: KubeObject) =>
    ['Succeeded', 'Failed'].includes(String((object.status as { phase?: string } | undefined)?.phase)),
  );
  const path = `/api/v1/namespaces/${namespace}/pods/${name}/log`;
  const phase = (pod.status as { phase: string }).phase;
  if (phase !== 'Succeeded') {
    const log = await cluster.client.request<unknown>('GET', path).catch((error: Error) => error.message);
    throw new Error(`pod ${namespace}/${name} ${phase}: ${JSON.stringify(log)}`);
  }
  const document = await cluster.client.request<unknown>('GET', path);
  await cluster.remove(pod);
  return document;
}

/** GET `url` from a pod; retried inside the pod for up to a minute while nothing answers yet. */
export function fetchFromPod(
  cluster: ClusterHandle,
  namespace: string,
  name: string,
  url: string,
): Promise<FetchedFromPod> {
  const script = `
const deadline = Date.now() + 60000;
for (;;) {
  try {
    const response = await fetch(${JSON.stringify(url)});
    const text = await response.text();
    let body = text;
    try { body = JSON.parse(text); } catch {}
    console.log(JSON.stringify({ status: response.status, body }));
    break;
  } catch (error) {
    if (Date.now() > deadline) { console.log(JSON.stringify({ status: 0, body: String(error.cause ?? error) })); break; }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}`;
  return runInPod(cluster, namespace, name, script) as Promise<FetchedFromPod>;
}
