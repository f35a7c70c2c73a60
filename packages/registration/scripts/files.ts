import { fileURLToPath } from 'node:url';

export const MANIFEST_FILE = fileURLToPath(
  new URL('../../../crds/scoby.triggermesh.io_crdregistrations.yaml', import.meta.url),
);
export const SHAPE_VALIDATOR_FILE = fileURLToPath(
  new URL('../src/validation/shape-validator.generated.ts', import.meta.url),
);
export const TYPES_FILE = fileURLToPath(new URL('../src/types.generated.ts', import.meta.url));
export const REFERENCE_FILE = fileURLToPath(
  new URL('../../../docs/reference/crdregistration.md', import.meta.url),
);
export const REFERENCE_EXAMPLES_DIR = fileURLToPath(
  new URL('../../../docs/reference/examples/', import.meta.url),
);
export const EDITOR_SCHEMA_FILE = fileURLToPath(
  new URL('../../../docs/public/schemas/crdregistration-v1alpha1.json', import.meta.url),
);
