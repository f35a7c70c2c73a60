/**
 * Why a Deployment's Pods do not run, in words a user acts on (docs/spec/children-and-status.md §8.3):
 * from the containers' waiting reasons, as the kubelet reports them.
 */
import type { KubeObject } from '@scoby/kube-objects';

export interface PodProblem {
  /** The waiting reason, e.g. `ImagePullBackOff`. */
  reason: string;
  message: string;
}

interface ContainerStatus {
  name?: string;
  image?: string;
  restartCount?: number;
  state?: { waiting?: { reason?: string; message?: string } };
  lastState?: { terminated?: { exitCode?: number } };
}

const PULL_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName']);

function withDetail(text: string, detail: string | undefined): string {
  return detail ? `${text}: ${detail}` : text;
}

/** The sentence for one container's waiting state; undefined for reasons that say nothing wrong. */
export function containerProblem(status: ContainerStatus): PodProblem | undefined {
  const reason = status.state?.waiting?.reason;
  const detail = status.state?.waiting?.message;
  const name = status.name ?? '';
  if (reason === undefined) return undefined;
  if (PULL_REASONS.has(reason)) {
    return {
      reason,
      message: withDetail(`image "${status.image ?? ''}" of container "${name}" cannot be pulled`, detail),
    };
  }
  if (reason === 'CrashLoopBackOff') {
    const exitCode = status.lastState?.terminated?.exitCode;
    const times = `restarted ${status.restartCount ?? 0} times${exitCode === undefined ? '' : `, last exit code ${exitCode}`}`;
    return { reason, message: withDetail(`container "${name}" is crashing (${times})`, detail) };
  }
  if (reason === 'CreateContainerConfigError') {
    return {
      reason,
      message: withDetail(
        `container "${name}" cannot start, a Secret or ConfigMap it reads is missing`,
        detail,
      ),
    };
  }
  return undefined;
}

/**
 * The first problem's reason and every distinct problem's message joined by `; `, over the Pods in
 * name order (init containers first); undefined when no container waits for a listed reason.
 */
export function podProblems(pods: readonly KubeObject[]): PodProblem | undefined {
  const sorted = [...pods].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  const problems: PodProblem[] = [];
  for (const pod of sorted) {
    const status = (pod.status ?? {}) as {
      initContainerStatuses?: ContainerStatus[];
      containerStatuses?: ContainerStatus[];
    };
    for (const container of [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])]) {
      const problem = containerProblem(container);
      if (problem) problems.push(problem);
    }
  }
  const [first] = problems;
  if (first === undefined) return undefined;
  return {
    reason: first.reason,
    message: [...new Set(problems.map((problem) => problem.message))].join('; '),
  };
}
