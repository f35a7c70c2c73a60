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
import { podProblems } from './pod-problems.ts';

/**
 * From the Deployment's `Available` condition; when it is not True, a problem of its Pods (read only
 * then) replaces the reason and message, else a progress deadline the Deployment's controller has
 * given up at (kube-apiserver says so in `Progressing`, never in `Available`).
 */
export function deploymentReady(
  deployment: KubeObject | undefined,
  pods: readonly KubeObject[] = [],
): ConditionResult {
  const ready = availability(deployment);
  if (ready.status === 'True') return ready;
  const problem = podProblems(pods) ?? deadlineExceeded(deployment);
  return problem === undefined
    ? ready
    : { status: ready.status, reason: problem.reason, message: problem.message };
}

const PROGRESS_DEADLINE_EXCEEDED = 'ProgressDeadlineExceeded';

function deadlineExceeded(
  deployment: KubeObject | undefined,
): { reason: string; message: string } | undefined {
  const progressing = observedCondition(deployment, 'Progressing');
  return progressing?.status === 'False' && progressing.reason === PROGRESS_DEADLINE_EXCEEDED
    ? { reason: PROGRESS_DEADLINE_EXCEEDED, message: progressing.message }
    : undefined;
}

function availability(deployment: KubeObject | undefined): ConditionResult {
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
  const deploymentCondition = {
    DeploymentReady: deploymentReady(observed['deployment'], input.pods?.['deployment']),
  };
  if (block.service === undefined) return { conditions: deploymentCondition, address: { kind: 'unmanaged' } };
  return {
    conditions: { ...deploymentCondition, ServiceReady: serviceReady(observed['service']) },
    address: serviceAddress(children['service'], clusterDomain),
  };
}
