/**
 * An example third-party form factor: runs the adapter as a StatefulSet behind a headless Service.
 * Scoby loads it from this module's default export (see README.md).
 */
import type { FormFactorPlugin } from '@scoby/formfactor';
import { STATEFUL_SET_BLOCK_SCHEMA, type StatefulSetBlock } from './block.ts';
import { renderStatefulSet } from './render.ts';
import { statefulSetStatus } from './status.ts';

export const statefulSetFormFactor: FormFactorPlugin<StatefulSetBlock> = {
  name: 'statefulSet',
  blockSchema: STATEFUL_SET_BLOCK_SCHEMA,
  requiredApis: ['apps/v1', 'v1'],
  managedKinds: [
    { apiVersion: 'apps/v1', kind: 'StatefulSet' },
    { apiVersion: 'v1', kind: 'Service' },
  ],
  conditionTypes: ['StatefulSetReady'],
  render: renderStatefulSet,
  status: statefulSetStatus,
  // status() reads only the observed StatefulSet's status: the controller caches no more of it.
  observedFields: ['status'],
};

export default statefulSetFormFactor;
export { STATEFUL_SET_BLOCK_SCHEMA, type StatefulSetBlock } from './block.ts';
export { renderStatefulSet } from './render.ts';
export { statefulSetReady, statefulSetStatus } from './status.ts';
