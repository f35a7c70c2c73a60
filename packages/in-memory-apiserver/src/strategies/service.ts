import type { KubeObject } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import { isJsonMap, type JsonMap } from '../json.ts';
import type { TypeStrategy } from './strategy.ts';
import { validateService, validateServiceUpdate } from '../validation/service.ts';

function specOf(object: KubeObject): JsonMap {
  return isJsonMap(object.spec) ? object.spec : {};
}

function defaultPort(port: unknown): unknown {
  if (!isJsonMap(port)) return port;
  return { protocol: 'TCP', ...port, targetPort: port.targetPort ?? port.port };
}

/** Service defaults, and cluster IP allocation when the Service simulation is on. */
export const serviceStrategy: TypeStrategy = {
  validate: validateService,
  validateUpdate: validateServiceUpdate,
  defaults(object: KubeObject): KubeObject {
    const spec = specOf(object);
    const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';
    return {
      ...object,
      spec: {
        sessionAffinity: 'None',
        ...(type === 'ExternalName' ? {} : { internalTrafficPolicy: 'Cluster' }),
        ...spec,
        type,
        ...(Array.isArray(spec.ports) ? { ports: spec.ports.map(defaultPort) } : {}),
      },
    };
  },
  prepareForCreate(object: KubeObject, cluster: Cluster): KubeObject {
    const spec = specOf(object);
    const withStatus = { ...object, status: { loadBalancer: {} } };
    if (spec.type === 'ExternalName' || cluster.allocateClusterIp === undefined) return withStatus;
    const clusterIP =
      typeof spec.clusterIP === 'string' && spec.clusterIP !== ''
        ? spec.clusterIP
        : cluster.allocateClusterIp();
    return {
      ...withStatus,
      spec: {
        ...spec,
        clusterIP,
        clusterIPs: [clusterIP],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      },
    };
  },
  prepareForUpdate(next: KubeObject, current: KubeObject): KubeObject {
    const spec = specOf(next);
    const allocated = specOf(current);
    if (spec.clusterIP !== undefined || allocated.clusterIP === undefined) return next;
    const kept: JsonMap = { clusterIP: allocated.clusterIP };
    for (const key of ['clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) {
      if (spec[key] === undefined && allocated[key] !== undefined) kept[key] = allocated[key];
    }
    return { ...next, spec: { ...spec, ...kept } };
  },
};
