/**
 * Service validation for what clients write: ports required (unless ExternalName or headless), each
 * named when there are several, names unique, port and targetPort in range, no two ports with the same
 * port and protocol; on update a cluster IP once set does not change.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { isJsonObject, type Cause, type JsonMap } from '@scoby/structural-schema';
import { duplicate, invalidRendered, requiredValue } from './field-errors.ts';
import { portRangeCauses } from './pod-template.ts';

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

export function validateService(object: KubeObject): Cause[] {
  const spec = specOf(object);
  const ports = (Array.isArray(spec.ports) ? spec.ports : []).filter(isJsonObject);
  const headless = spec.clusterIP === 'None';
  if (ports.length === 0) {
    return spec.type === 'ExternalName' || headless ? [] : [requiredValue('spec.ports', '')];
  }
  const causes: Cause[] = [];
  const names = new Set<string>();
  ports.forEach((port, index) => {
    const path = `spec.ports[${index}]`;
    const name = typeof port.name === 'string' ? port.name : '';
    if (ports.length > 1 && name === '') causes.push(requiredValue(`${path}.name`, ''));
    else if (name !== '' && names.has(name)) causes.push(duplicate(`${path}.name`, name));
    names.add(name);
    causes.push(...portRangeCauses(`${path}.port`, port.port));
    causes.push(...portRangeCauses(`${path}.targetPort`, port.targetPort));
  });
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
  // An update without a cluster IP keeps the allocated one.
  if (typeof before !== 'string' || before === '' || after === before || after === undefined || after === '')
    return [];
  return [invalidRendered('spec.clusterIPs[0]', JSON.stringify([after]), 'may not change once set')];
}
