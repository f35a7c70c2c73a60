/** Where the install sources are and where the generated artefacts go, from the repository root. */
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The sources: the CRD (generated from the registration schema) and deploy/'s manifests. */
export const SOURCE_FILES = {
  crd: 'crds/scoby.triggermesh.io_crdregistrations.yaml',
  namespace: 'deploy/00-namespace.yaml',
  rbac: 'deploy/10-rbac.yaml',
  deployment: 'deploy/20-deployment.yaml',
  controllerPackage: 'apps/controller/package.json',
} as const;

export const CHART_DIR = 'deploy/helm/scoby';
export const RELEASE_MANIFEST = 'deploy/release/scoby.yaml';
