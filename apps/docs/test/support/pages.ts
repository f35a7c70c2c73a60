/** The pages whose shell blocks CI runs (test/pages.kube.test.ts), and the cluster each one runs on. */
export interface TestedPage {
  page: string;
  /**
   * `none`: the page starts what it needs itself. `memory`: `scoby run --embedded` on the in-memory API
   * server, started before the first block with its kubeconfig in KUBECONFIG and ~/.kube/config.
   * `kwok`: the same on the real control plane, for what the in-memory server cannot show.
   */
  cluster: 'none' | 'memory' | 'kwok';
  /** With `--sample`: the Greeter sample applied and reconciled before the first block. */
  sample?: boolean;
}

export const TESTED_PAGES: readonly TestedPage[] = [
  { page: 'README.md', cluster: 'memory', sample: true },
  { page: 'docs/quick-start.md', cluster: 'none' },
  { page: 'docs/tutorial.md', cluster: 'memory' },
  // On the real control plane Scoby runs under its shipped RBAC: the tutorial's ClusterRole is what lets it manage Mailers.
  { page: 'docs/tutorial.md', cluster: 'kwok' },
  { page: 'docs/hooks.md', cluster: 'memory' },
  // Finalizers, and Scoby under its shipped RBAC, as kube-apiserver enforces them.
  { page: 'docs/hooks.md', cluster: 'kwok' },
  { page: 'docs/plugins.md', cluster: 'memory' },
  { page: 'docs/render-and-validate.md', cluster: 'memory', sample: true },
  { page: 'docs/operations/troubleshooting.md', cluster: 'memory' },
  // The release's dry run with npm's default configuration: it starts a local registry of its own.
  { page: 'docs/operations/release.md', cluster: 'none' },
];
