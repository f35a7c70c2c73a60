import { condition, type StatusSimulation } from './status-simulator.ts';

/** Knative Services (serving.knative.dev, when its CRD is installed) become Ready with cluster-local addresses. */
export function knativeServiceSimulation(delayMs: number): StatusSimulation {
  return {
    key: 'services.serving.knative.dev',
    delayMs,
    status(object, now) {
      const name = object.metadata.name ?? '';
      const namespace = object.metadata.namespace ?? 'default';
      const generation = object.metadata.generation ?? 1;
      const revision = `${name}-${String(generation).padStart(5, '0')}`;
      return {
        observedGeneration: generation,
        conditions: [
          condition(object.status, 'ConfigurationsReady', 'True', '', '', now, false),
          condition(object.status, 'Ready', 'True', '', '', now, false),
          condition(object.status, 'RoutesReady', 'True', '', '', now, false),
        ].map(({ reason: _reason, message: _message, ...rest }) => rest),
        latestCreatedRevisionName: revision,
        latestReadyRevisionName: revision,
        url: `http://${name}.${namespace}.example.com`,
        address: { url: `http://${name}.${namespace}.svc.cluster.local` },
        traffic: [{ revisionName: revision, latestRevision: true, percent: 100 }],
      };
    },
  };
}
