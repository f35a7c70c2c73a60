/**
 * Service validation as kube-apiserver's ValidateService words it, for what clients write: ports
 * (required unless ExternalName or headless; named by unique RFC 1123 labels when there are several;
 * port and targetPort in range, a named targetPort a valid port name; a supported protocol; no two with
 * the same port and protocol; no nodePort on a ClusterIP Service), the type, the session affinity,
 * ExternalName's externalName and the fields it may not have, headless NodePort and LoadBalancer
 * Services, load balancer ingress in the status of a LoadBalancer only; on update a cluster IP once set
 * does not change (unless the type becomes ExternalName).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { isJsonObject, type Cause, type JsonMap } from '@scoby/structural-schema';
import { dnsLabelErrors, dnsSubdomainErrors } from '../names.ts';
import {
  duplicate,
  forbidden,
  invalidRendered,
  invalidValue,
  notSupported,
  requiredValue,
} from './field-errors.ts';
import { portNameErrors, portRangeCauses } from './ports.ts';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
/** The kubelet's port, which a LoadBalancer may not expose. */
const KUBELET_PORT = 10250;

function specOf(object: KubeObject): JsonMap {
  return isJsonObject(object.spec) ? object.spec : {};
}

/** Go's %v-free rendering of the duplicated ServicePort as kube-apiserver prints it (its Go field names). */
function renderServicePort(port: JsonMap): string {
  return JSON.stringify({
    Name: '',
    Protocol: port.protocol ?? 'TCP',
    AppProtocol: null,
    Port: port.port ?? 0,
    TargetPort: 0,
    NodePort: 0,
  });
}

function targetPortCauses(path: string, targetPort: unknown): Cause[] {
  if (typeof targetPort === 'string')
    return portNameErrors(targetPort).map((message) => invalidValue(path, targetPort, message));
  return portRangeCauses(path, targetPort);
}

function portCauses(port: JsonMap, path: string, requireName: boolean, names: Set<string>): Cause[] {
  const causes: Cause[] = [];
  const name = typeof port.name === 'string' ? port.name : '';
  if (requireName && name === '') causes.push(requiredValue(`${path}.name`, ''));
  else if (name !== '') {
    for (const message of dnsLabelErrors(name)) causes.push(invalidValue(`${path}.name`, name, message));
    if (names.has(name)) causes.push(duplicate(`${path}.name`, name));
    names.add(name);
  }
  causes.push(...portRangeCauses(`${path}.port`, port.port ?? 0));
  const protocol = port.protocol;
  if (protocol === undefined || protocol === '') causes.push(requiredValue(`${path}.protocol`, ''));
  else if (!PROTOCOLS.includes(String(protocol)))
    causes.push(notSupported(`${path}.protocol`, protocol, PROTOCOLS));
  causes.push(...targetPortCauses(`${path}.targetPort`, port.targetPort));
  return causes;
}

function typeCauses(spec: JsonMap, headless: boolean, ports: JsonMap[]): Cause[] {
  const causes: Cause[] = [];
  const firstIp = Array.isArray(spec.clusterIPs) ? spec.clusterIPs[0] : spec.clusterIP;
  switch (spec.type) {
    case 'LoadBalancer':
      if (headless)
        causes.push(
          invalidValue('spec.clusterIPs[0]', firstIp, "may not be set to 'None' for LoadBalancer services"),
        );
      ports.forEach((port, index) => {
        if (port.port === KUBELET_PORT)
          causes.push(
            invalidValue(
              `spec.ports[${index}]`,
              port.port,
              `may not expose port ${KUBELET_PORT} externally since it is used by kubelet`,
            ),
          );
      });
      break;
    case 'NodePort':
      if (headless)
        causes.push(
          invalidValue('spec.clusterIPs[0]', firstIp, "may not be set to 'None' for NodePort services"),
        );
      break;
    case 'ExternalName': {
      if (Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0)
        causes.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      if (Array.isArray(spec.ipFamilies) && spec.ipFamilies.length > 0)
        causes.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null)
        causes.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
      const cname = typeof spec.externalName === 'string' ? spec.externalName.replace(/\.$/, '') : '';
      if (cname === '') causes.push(requiredValue('spec.externalName', ''));
      else
        for (const message of dnsSubdomainErrors(cname))
          causes.push(invalidValue('spec.externalName', cname, message));
      break;
    }
    default:
      break;
  }
  if (spec.type === undefined || spec.type === '') causes.push(requiredValue('spec.type', ''));
  else if (!SERVICE_TYPES.includes(String(spec.type)))
    causes.push(notSupported('spec.type', spec.type, SERVICE_TYPES));
  if (spec.type === 'ClusterIP')
    ports.forEach((port, index) => {
      if (port.nodePort !== undefined && port.nodePort !== 0)
        causes.push(forbidden(`spec.ports[${index}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  return causes;
}

function sessionAffinityCauses(spec: JsonMap): Cause[] {
  const affinity = spec.sessionAffinity;
  if (affinity === undefined || affinity === '') return [requiredValue('spec.sessionAffinity', '')];
  if (!SESSION_AFFINITIES.includes(String(affinity)))
    return [notSupported('spec.sessionAffinity', affinity, SESSION_AFFINITIES)];
  if (affinity === 'None' && spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null)
    return [forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None')];
  return [];
}

/** A load balancer's ingress points, which only a LoadBalancer Service may report (its status). */
function statusCauses(object: KubeObject, spec: JsonMap): Cause[] {
  const status = isJsonObject(object.status) ? object.status : {};
  const loadBalancer = isJsonObject(status.loadBalancer) ? status.loadBalancer : {};
  const ingress = Array.isArray(loadBalancer.ingress) ? loadBalancer.ingress : [];
  if (ingress.length === 0 || spec.type === 'LoadBalancer') return [];
  return [forbidden('status.loadBalancer.ingress', "may only be used when `spec.type` is 'LoadBalancer'")];
}

export function validateService(object: KubeObject): Cause[] {
  const spec = specOf(object);
  const ports = (Array.isArray(spec.ports) ? spec.ports : []).filter(isJsonObject);
  const headless = spec.clusterIP === 'None';
  const causes: Cause[] = [];
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName')
    causes.push(requiredValue('spec.ports', ''));
  causes.push(...typeCauses(spec, headless, ports));
  const names = new Set<string>();
  ports.forEach((port, index) => {
    causes.push(...portCauses(port, `spec.ports[${index}]`, ports.length > 1, names));
  });
  causes.push(...sessionAffinityCauses(spec));
  causes.push(...statusCauses(object, spec));
  const seen = new Set<string>();
  ports.forEach((port, index) => {
    const key = `${String(port.port)}/${String(port.protocol ?? 'TCP')}`;
    if (seen.has(key))
      causes.push({
        ...duplicate(`spec.ports[${index}]`, null),
        message: `Duplicate value: ${renderServicePort(port)}`,
      });
    seen.add(key);
  });
  return causes;
}

export function validateServiceUpdate(next: KubeObject, current: KubeObject): Cause[] {
  const before = specOf(current).clusterIP;
  const after = specOf(next).clusterIP;
  // An update without a cluster IP keeps the allocated one; an ExternalName Service has none.
  if (
    typeof before !== 'string' ||
    before === '' ||
    after === before ||
    after === undefined ||
    after === '' ||
    specOf(next).type === 'ExternalName'
  )
    return [];
  return [invalidRendered('spec.clusterIPs[0]', JSON.stringify([after]), 'may not change once set')];
}
