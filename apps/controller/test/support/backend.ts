/**
 * What a scenario written once (test/support/*-scenario.ts) is given by the backend it runs on: the
 * in-memory API server (test/integration) or the real control plane (test/real-cluster). Each backend's
 * test file is a thin runner that starts this and hands it to the scenario, which declares the tests.
 */
import type { RunningProcess } from '../../src/process/options.ts';
import type { ClusterVerbs, TestCluster } from './cluster.ts';
import { writesIn } from './scoby.ts';

export interface ScenarioBackend {
  /** The cluster as its admin. */
  cluster: ClusterVerbs;
  /** The controller under test (on the real control plane, as Scoby's ServiceAccount under the shipped RBAC). */
  controller: RunningProcess;
  /** Stops what the runner started. */
  stop(): Promise<void>;
}

/** What a scenario's titles name the backend by. */
export const IN_MEMORY = 'in-memory API server';
export const REAL_CONTROL_PLANE = 'real control plane';

/** In memory only: the server's log of writes (every request but GET and access reviews), from `mark()` on. */
export interface ServerWrites {
  mark(): void;
  since(fragment?: string): { method: string; path: string }[];
}

export function serverWrites(cluster: TestCluster): ServerWrites {
  return {
    mark: () => cluster.server.requestLog.clear(),
    since: (fragment) => writesIn(cluster.server.requestLog.entries(), fragment),
  };
}

/** The in-memory backend of a cluster the runner started. */
export function inMemoryBackend(cluster: TestCluster): ScenarioBackend & { serverWrites: ServerWrites } {
  return {
    cluster,
    controller: cluster.controller,
    stop: () => cluster.stop(),
    serverWrites: serverWrites(cluster),
  };
}
