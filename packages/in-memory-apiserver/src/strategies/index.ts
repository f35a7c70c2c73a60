import type { ResourceType } from '../resource-type.ts';
import { keyOf } from '../resource-type.ts';
import { crdStrategy } from './crd.ts';
import { eventStrategy, eventsV1Strategy } from './event.ts';
import { validateLease } from '../validation/lease.ts';
import { namespaceStrategy } from './namespace.ts';
import { secretStrategy } from './secret.ts';
import { serviceStrategy } from './service.ts';
import type { TypeStrategy } from './strategy.ts';
import { validateDataUpdate } from '../validation/immutable-data.ts';
import { deploymentStrategy, statefulSetStrategy } from './workloads.ts';

export type { TypeStrategy } from './strategy.ts';

const STRATEGIES: ReadonlyMap<string, TypeStrategy> = new Map([
  ['namespaces', namespaceStrategy],
  ['configmaps', { validateUpdate: validateDataUpdate }],
  ['secrets', secretStrategy],
  ['services', serviceStrategy],
  ['events', eventStrategy],
  ['leases.coordination.k8s.io', { validate: validateLease }],
  ['events.events.k8s.io', eventsV1Strategy],
  ['deployments.apps', deploymentStrategy],
  ['statefulsets.apps', statefulSetStrategy],
  ['customresourcedefinitions.apiextensions.k8s.io', crdStrategy],
]);

const NONE: TypeStrategy = {};

export function strategyFor(type: ResourceType): TypeStrategy {
  return type.builtin ? (STRATEGIES.get(keyOf(type)) ?? NONE) : NONE;
}
