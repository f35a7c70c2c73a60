/**
 * Starts the real control plane once and points the conformance harness at it (CONFORMANCE_KUBECONFIG),
 * unless a kubeconfig of another real cluster is given already.
 */
import { startControlPlane } from '@scoby/kube-control-plane';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.CONFORMANCE_KUBECONFIG) return undefined;
  const plane = await startControlPlane({ log: (line) => console.log(`[conformance] ${line}`) });
  process.env.CONFORMANCE_KUBECONFIG = plane.kubeconfigPath;
  return () => plane.stop();
}
