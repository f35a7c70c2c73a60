/**
 * What a scenario written once (test/support/*-scenario.ts) is given by the backend it runs on: the
 * in-memory API server (test/integration) or the real control plane (test/real-cluster). Each backend's
 * test file is a thin runner that starts this and hands it to the scenario, which declares the tests.
 */
import type { RunningController } from '../../src/process/options.ts';
import type { ClusterVerbs } from './cluster.ts';

export interface ScenarioBackend {
  /** The cluster as its admin. */
  cluster: ClusterVerbs;
  /** The controller under test (on the real control plane, as Scoby's ServiceAccount under the shipped RBAC). */
  controller: RunningController;
  /** Stops what the runner started. */
  stop(): Promise<void>;
}

/** What a scenario's titles name the backend by. */
export const IN_MEMORY = 'in-memory API server';
export const REAL_CONTROL_PLANE = 'real control plane';
