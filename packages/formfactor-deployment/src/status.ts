/** Conditions and address of the `deployment` form factor (docs/spec/children-and-status.md §8.3, §8.7). */
import {
  observedCondition,
  type AddressResult,
  type ConditionResult,
  type FormFactorStatus,
  type StatusInput,
} from '@scoby/formfactor';
import { serviceUrl, type KubeObject } from '@scoby/kube-objects';
import type { DeploymentBlock } from './block.ts';

export function deploymentReady(deployment: KubeObject | undefined): ConditionResult {
  const available = observedCondition(deployment, 'Available');
  if (available === undefined) return { status: 'Unknown', reason: 'DeploymentUnknown', message: '' };
  switch (available.status) {
    case 'True':
      return { status: 'True', reason: available.reason || 'DeploymentAvailable', message: '' };
    case 'False':
      return {
        status: 'False',
        reason: available.reason || 'DeploymentUnavailable',
        message: available.message,
      };
    case 'Unknown':
      return { status: 'Unknown', reason: 'DeploymentUnknown', message: available.message };
    default:
      return {
        status: 'Unknown',
        reason: 'DeploymentUnknown',
        message: `"Available" condition for deployment contains an unexpected status: ${available.status}`,
      };
  }
}

export function serviceReady(service: KubeObject | undefined): ConditionResult {
  return service === undefined
    ? { status: 'False', reason: 'ServiceDoesNotExist', message: '' }
    : { status: 'True', reason: 'ServiceExist', message: '' };
}

/**
 * From the final child under key `service`, which names the Service Scoby wrote (a hook may have
 * changed its name or port); no such child means there is no URL.
 */
export function serviceAddress(service: KubeObject | undefined, clusterDomain: string): AddressResult {
  const { name, namespace } = service?.metadata ?? {};
  if (name === undefined || namespace === undefined) return { kind: 'none' };
  const ports = (service?.spec as { ports?: unknown } | undefined)?.ports;
  const port = Array.isArray(ports) ? (ports[0] as { port?: unknown } | undefined)?.port : undefined;
  return {
    kind: 'url',
    url: serviceUrl(name, namespace, clusterDomain, typeof port === 'number' ? port : undefined),
  };
}

export function deploymentStatus(input: StatusInput<DeploymentBlock>): FormFactorStatus {
  const { block, children, observed, clusterDomain } = input;
  const deploymentCondition = { DeploymentReady: deploymentReady(observed['deployment']) };
  if (block.service === undefined) return { conditions: deploymentCondition, address: { kind: 'unmanaged' } };
  return {
    conditions: { ...deploymentCondition, ServiceReady: serviceReady(observed['service']) },
    address: serviceAddress(children['service'], clusterDomain),
  };
}
