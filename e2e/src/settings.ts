/** What the suite reads from its environment: which cluster to run against and with which images. */
import { KUBE_RELEASE } from '@scoby/kube-control-plane';

export const CLUSTER_CHOICES = ['memory', 'kwok', 'k3s', 'node', 'auto'] as const;
export type ClusterChoice = (typeof CLUSTER_CHOICES)[number];

/** The namespace the suite runs Scoby in (SCOBY_NAMESPACE): controller ConfigMaps and the Lease live here. */
export const SCOBY_NAMESPACE = 'scoby-system';

/**
 * The image scenarios register as their adapter. Any image works on the in-memory server; on k3s pods
 * really start, so it is the pause image k3s itself runs (always pullable there, happy with a read-only
 * root filesystem, and indifferent to the environment Scoby gives it).
 */
export const ADAPTER_IMAGE = 'rancher/mirrored-pause:3.6';

/** A current k3s release; override with K3S_IMAGE. */
export const DEFAULT_K3S_IMAGE = 'rancher/k3s:v1.33.4-k3s1';

/** The images `npm run images` builds (e2e/images/build-images.sh). */
export const DEFAULT_NODE_IMAGE = `scoby.local/kube-node:${KUBE_RELEASE.kubernetes}`;
export const DEFAULT_NODE_CONTROLLER_IMAGE = 'scoby.local/scoby-controller:dev-plugins';
/** The controller image rebuilt (same content, a new image): `helm upgrade` moves the chart to it. */
export const REBUILT_CONTROLLER_IMAGE = 'scoby.local/scoby-controller:dev-plugins-rebuilt';
/** Workloads of the real-pod scenarios, loaded into the node with the controller image. */
export const NODE_WORKLOAD_IMAGES = [
  'scoby.local/greeter-env:dev',
  'scoby.local/example-hook:dev',
  REBUILT_CONTROLLER_IMAGE,
] as const;

export interface E2eSettings {
  cluster: ClusterChoice;
  k3sImage: string;
  /** E2E_NODE_IMAGE: the node image of E2E_CLUSTER=node. */
  nodeImage: string;
  /** An image of the controller already loadable into k3s; only then is deploy/'s Deployment applied on k3s. */
  controllerImage: string | undefined;
  /**
   * E2E_SCOBY_REPLICAS: Scoby processes run in the test process (not on the node cluster, where the
   * chart runs them). 1 (default): one, in leader mode. More: that many, in active-active mode,
   * sharing the registrations (docs/spec/registration.md §9).
   */
  replicas: number;
  /**
   * E2E_KNATIVE=1 (E2E_CLUSTER=node only): Knative Serving and Traefik installed on the node before
   * Scoby, for the scenarios of test/node-knative (`npm run images -- knative`, `npm run
   * knative-manifest` first; e2e-node.sh does both when E2E_KNATIVE=1).
   */
  knative: boolean;
}

export type SettingsReading = { ok: true; settings: E2eSettings } | { ok: false; message: string };

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * E2E_CLUSTER (default memory, so a plain run needs neither built binaries nor a container runtime),
 * K3S_IMAGE, E2E_CONTROLLER_IMAGE, E2E_SCOBY_REPLICAS, E2E_KNATIVE.
 */
export function readSettings(env: Readonly<Record<string, string | undefined>>): SettingsReading {
  const cluster = nonEmpty(env.E2E_CLUSTER) ?? 'memory';
  if (!(CLUSTER_CHOICES as readonly string[]).includes(cluster)) {
    return {
      ok: false,
      message: `E2E_CLUSTER: "${cluster}" is not one of ${CLUSTER_CHOICES.map((choice) => `"${choice}"`).join(', ')}`,
    };
  }
  const replicasText = nonEmpty(env.E2E_SCOBY_REPLICAS) ?? '1';
  const replicas = Number(replicasText);
  if (!/^[1-9]\d?$/.test(replicasText)) {
    return { ok: false, message: `E2E_SCOBY_REPLICAS: "${replicasText}" is not a whole number from 1 to 99` };
  }
  const knativeText = nonEmpty(env.E2E_KNATIVE) ?? '0';
  if (knativeText !== '0' && knativeText !== '1')
    return { ok: false, message: `E2E_KNATIVE: "${knativeText}" is neither 1 nor 0` };
  if (knativeText === '1' && cluster !== 'node')
    return { ok: false, message: `E2E_KNATIVE=1 needs E2E_CLUSTER=node (this run: ${cluster})` };
  return {
    ok: true,
    settings: {
      replicas,
      knative: knativeText === '1',
      cluster: cluster as ClusterChoice,
      k3sImage: nonEmpty(env.K3S_IMAGE) ?? DEFAULT_K3S_IMAGE,
      nodeImage: nonEmpty(env.E2E_NODE_IMAGE) ?? DEFAULT_NODE_IMAGE,
      controllerImage:
        nonEmpty(env.E2E_CONTROLLER_IMAGE) ??
        (cluster === 'node' ? DEFAULT_NODE_CONTROLLER_IMAGE : undefined),
    },
  };
}
