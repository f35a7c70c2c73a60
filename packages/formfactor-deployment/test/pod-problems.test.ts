/** Why a Deployment is not available, from its Pods' waiting containers (docs/spec/children-and-status.md §8.3). */
import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { deploymentFormFactor } from '../src/index.ts';
import { podProblems } from '../src/pod-problems.ts';
import { renderFor, resolvedBlock } from './fixtures.ts';

function pod(name: string, status: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, status };
}

const waiting = (name: string, reason: string, message?: string, extra: Record<string, unknown> = {}) => ({
  name,
  image: 'registry.example.com/mailer:9',
  restartCount: 0,
  state: { waiting: { reason, ...(message === undefined ? {} : { message }) } },
  ...extra,
});

const PULL_MESSAGE = 'Back-off pulling image "registry.example.com/mailer:9"';

describe('podProblems', () => {
  it('says an image cannot be pulled, a container crashes, a Secret or ConfigMap is missing', () => {
    expect(
      podProblems([pod('a', { containerStatuses: [waiting('adapter', 'ImagePullBackOff', PULL_MESSAGE)] })]),
    ).toEqual({
      reason: 'ImagePullBackOff',
      message: `image "registry.example.com/mailer:9" of container "adapter" cannot be pulled: ${PULL_MESSAGE}`,
    });
    expect(
      podProblems([
        pod('a', {
          containerStatuses: [
            waiting('adapter', 'CrashLoopBackOff', 'back-off 40s restarting failed container=adapter', {
              restartCount: 3,
              lastState: { terminated: { exitCode: 2, reason: 'Error' } },
            }),
          ],
        }),
      ]),
    ).toEqual({
      reason: 'CrashLoopBackOff',
      message:
        'container "adapter" is crashing (restarted 3 times, last exit code 2): back-off 40s restarting failed container=adapter',
    });
    expect(
      podProblems([
        pod('a', {
          containerStatuses: [
            waiting('adapter', 'CreateContainerConfigError', 'secret "mailer-credentials" not found'),
          ],
        }),
      ]),
    ).toEqual({
      reason: 'CreateContainerConfigError',
      message:
        'container "adapter" cannot start, a Secret or ConfigMap it reads is missing: secret "mailer-credentials" not found',
    });
  });

  it('takes the first problem by Pod name (init containers first) for the reason and joins distinct messages', () => {
    const crashing = waiting('adapter', 'CrashLoopBackOff', '', { restartCount: 1 });
    const problems = podProblems([
      pod('b', { containerStatuses: [waiting('adapter', 'ErrImagePull')] }),
      pod('a', {
        initContainerStatuses: [crashing],
        containerStatuses: [waiting('adapter', 'PodInitializing')],
      }),
      pod('c', { containerStatuses: [waiting('adapter', 'ErrImagePull')] }),
    ]);
    expect(problems).toEqual({
      reason: 'CrashLoopBackOff',
      message:
        'container "adapter" is crashing (restarted 1 times); ' +
        'image "registry.example.com/mailer:9" of container "adapter" cannot be pulled',
    });
  });

  it('finds nothing in containers that are creating, running or have no status', () => {
    expect(
      podProblems([
        pod('a', { containerStatuses: [waiting('adapter', 'ContainerCreating')] }),
        pod('b', { containerStatuses: [{ name: 'adapter', state: { running: {} } }] }),
        pod('c', { phase: 'Pending' }),
      ]),
    ).toBeUndefined();
  });
});

describe('DeploymentReady with the Pods of an unavailable Deployment', () => {
  const deployment = (status: string, reason: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'mailer-orders' },
    status: {
      conditions: [
        { type: 'Available', status, reason, message: 'Deployment does not have minimum availability.' },
      ],
    },
  });
  const readiness = (observed: KubeObject, pods: KubeObject[]) =>
    deploymentFormFactor.status({
      block: resolvedBlock({}),
      children: renderFor({}),
      observed: { deployment: observed },
      pods: { deployment: pods },
      clusterDomain: 'cluster.local',
    }).conditions['DeploymentReady'];
  const pulling = [pod('a', { containerStatuses: [waiting('adapter', 'ErrImagePull', 'not found')] })];

  it('replaces the reason and message, keeping the status', () => {
    expect(readiness(deployment('False', 'MinimumReplicasUnavailable'), pulling)).toEqual({
      status: 'False',
      reason: 'ErrImagePull',
      message: 'image "registry.example.com/mailer:9" of container "adapter" cannot be pulled: not found',
    });
  });

  it("is the Deployment's own verdict when its Pods show nothing, or it is available", () => {
    expect(readiness(deployment('False', 'MinimumReplicasUnavailable'), [])).toEqual({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    });
    expect(readiness(deployment('True', 'MinimumReplicasAvailable'), pulling)).toEqual({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: '',
    });
  });
});
