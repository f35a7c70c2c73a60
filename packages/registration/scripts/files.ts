import { fileURLToPath } from 'node:url';

export const MANIFEST_FILE = fileURLToPath(
  new URL('../../../crds/scoby.triggermesh.io_crdregistrations.yaml', import.meta.url),
);
export const TYPES_FILE = fileURLToPath(new URL('../src/types.generated.ts', import.meta.url));
