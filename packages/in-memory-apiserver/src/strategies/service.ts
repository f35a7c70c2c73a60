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

/** Types reached from outside the cluster: they get node ports and an external traffic policy. */
function isExternal(type: unknown): boolean {
  return type === 'NodePort' || type === 'LoadBalancer';
}

/** The next free node port per cluster, from the default range's start (30000-32767). */
const nextNodePort = new WeakMap<Cluster, number>();

function withNodePorts(spec: JsonMap, cluster: Cluster, previous: JsonMap): JsonMap {
  if (!isExternal(spec.type) || !Array.isArray(spec.ports)) return spec;
  const before = Array.isArray(previous.ports) ? previous.ports.filter(isJsonMap) : [];
  const ports = spec.ports.map((port) => {
    if (!isJsonMap(port) || (typeof port.nodePort === 'number' && port.nodePort !== 0)) return port;
    // An update keeps the node port the same port and protocol had.
    const kept = before.find((old) => old.port === port.port && old.protocol === port.protocol)?.nodePort;
    if (typeof kept === 'number') return { ...port, nodePort: kept };
    const next = nextNodePort.get(cluster) ?? 30000;
    nextNodePort.set(cluster, next >= 32767 ? 30000 : next + 1);
    return { ...port, nodePort: next };
  });
  return { ...spec, ports };
}

/**
 * What a type that no longer needs them loses, when the update left them as they were (kube-apiserver's
 * dropTypeDependentFields): cluster IPs, IP families and the internal traffic policy (ExternalName),
 * node ports and the external traffic policy (off NodePort and LoadBalancer), load balancer settings.
 */
function dropTypeDependent(spec: JsonMap, before: JsonMap): JsonMap {
  const result: JsonMap = { ...spec };
  const dropUnchanged = (key: string) => {
    if (result[key] !== undefined && JSON.stringify(result[key]) === JSON.stringify(before[key]))
      delete result[key];
  };
  if (result.type === 'ExternalName' && before.type !== 'ExternalName')
    for (const key of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy'])
      dropUnchanged(key);
  if (!isExternal(result.type) && isExternal(before.type)) {
    dropUnchanged('externalTrafficPolicy');
    const beforePorts = Array.isArray(before.ports) ? before.ports.filter(isJsonMap) : [];
    if (Array.isArray(result.ports))
      result.ports = result.ports.map((port) => {
        if (!isJsonMap(port) || port.nodePort === undefined) return port;
        const same = beforePorts.some((old) => old.port === port.port && old.nodePort === port.nodePort);
        if (!same) return port;
        const { nodePort: _dropped, ...rest } = port;
        return rest;
      });
  }
  if (result.type !== 'LoadBalancer' && before.type === 'LoadBalancer')
    dropUnchanged('allocateLoadBalancerNodePorts');
  return result;
}

/** The spec with its cluster IP (single-stack IPv4). */
function allocated(spec: JsonMap, clusterIP: string): JsonMap {
  return { ...spec, clusterIP, clusterIPs: [clusterIP], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' };
}

/** Service defaults, and cluster IP and node port allocation when the Service simulation is on. */
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
        ...(isExternal(type) ? { externalTrafficPolicy: 'Cluster' } : {}),
        ...(type === 'LoadBalancer' ? { allocateLoadBalancerNodePorts: true } : {}),
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
    return { ...withStatus, spec: withNodePorts(allocated(spec, clusterIP), cluster, {}) };
  },
  /**
   * As kube-apiserver's update (patchAllocatedValues): the allocated cluster IPs kept when the update
   * leaves the cluster IP out or names the same one, then what the new type does not have dropped.
   */
  beforeUpdateValidation(next: KubeObject, current: KubeObject): KubeObject {
    const allocated = specOf(current);
    const spec = specOf(next);
    const kept: JsonMap = {};
    const sameClusterIP =
      spec.clusterIP === undefined || spec.clusterIP === '' || spec.clusterIP === allocated.clusterIP;
    if (spec.type !== 'ExternalName' && sameClusterIP && allocated.clusterIP !== undefined) {
      kept.clusterIP = allocated.clusterIP;
      for (const key of ['clusterIPs', 'ipFamilies', 'ipFamilyPolicy'])
        if (spec[key] === undefined && allocated[key] !== undefined) kept[key] = allocated[key];
    }
    return { ...next, spec: dropTypeDependent({ ...spec, ...kept }, allocated) };
  },
  prepareForUpdate(next: KubeObject, current: KubeObject, cluster: Cluster): KubeObject {
    if (cluster.allocateClusterIp === undefined) return next;
    const spec = specOf(next);
    // A Service that had no cluster IP (ExternalName) gets one when its new type needs it.
    const addressed =
      spec.type !== 'ExternalName' && (spec.clusterIP === undefined || spec.clusterIP === '')
        ? allocated(spec, cluster.allocateClusterIp())
        : spec;
    return { ...next, spec: withNodePorts(addressed, cluster, specOf(current)) };
  },
};
