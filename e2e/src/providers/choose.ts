/**
 * Which cluster provider runs the suite. kwok (the real control plane of @scoby/kube-control-plane)
 * needs its binaries built; k3s needs a container runtime and its image; when either is
 * missing, `k3s` fails with the reason and `auto` falls back to the in-memory API server saying why.
 * `node` (the node image built here by `npm run images`) needs a container runtime holding that image.
 */
import type { ClusterChoice } from '../settings.ts';

export type ProviderName = 'memory' | 'kwok' | 'k3s' | 'node';

/** Why k3s cannot run here, or undefined when it can. */
export type K3sProbe = () => Promise<string | undefined>;

export type ProviderChoice =
  { ok: true; provider: ProviderName; notice?: string } | { ok: false; message: string };

export async function chooseProvider(
  choice: ClusterChoice,
  probeK3s: K3sProbe,
  probeNode: K3sProbe = probeK3s,
): Promise<ProviderChoice> {
  if (choice === 'memory' || choice === 'kwok') return { ok: true, provider: choice };
  if (choice === 'node') {
    const obstacle = await probeNode();
    if (obstacle === undefined) return { ok: true, provider: 'node' };
    return { ok: false, message: `E2E_CLUSTER=node: cannot start the node image: ${obstacle}` };
  }
  const obstacle = await probeK3s();
  if (obstacle === undefined) return { ok: true, provider: 'k3s' };
  if (choice === 'k3s') return { ok: false, message: `E2E_CLUSTER=k3s: cannot run k3s: ${obstacle}` };
  return {
    ok: true,
    provider: 'memory',
    notice: `E2E_CLUSTER=auto: using the in-memory API server: ${obstacle}`,
  };
}
