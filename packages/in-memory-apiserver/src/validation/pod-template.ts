/**
 * The part of kube-apiserver's pod template validation that workloads written by Scoby, plugins and
 * tests reach: containers present, named by unique RFC 1123 labels, with an image, a termination
 * message policy, container ports in range, env (pod-env.ts), volumes and their mounts
 * (pod-volumes.ts). The rest of a PodSpec is taken as it is (see the README's differences).
 */
import { isJsonObject, type Cause } from '@scoby/structural-schema';
import { duplicate, invalidValue, notSupported, requiredValue } from './field-errors.ts';
import { envCauses } from './pod-env.ts';
import { containerProbeCauses } from './pod-probes.ts';
import { resourceCauses } from './pod-resources.ts';
import { portRangeCauses } from './ports.ts';
import { volumeCauses, volumeMountCauses } from './pod-volumes.ts';
import { childPath } from './schema-walk.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

function terminationMessagePolicyCauses(policy: unknown, field: string): Cause[] {
  if (policy === undefined || TERMINATION_MESSAGE_POLICIES.includes(policy as string)) return [];
  if (policy === '' || policy === null) return [requiredValue(field, '')];
  return [notSupported(field, policy, TERMINATION_MESSAGE_POLICIES)];
}

function containerCauses(container: unknown, path: string, volumes: ReadonlySet<string>): Cause[] {
  if (!isJsonObject(container)) return [];
  const causes: Cause[] = [];
  const name = typeof container.name === 'string' ? container.name : '';
  if (name === '') causes.push(requiredValue(childPath(path, 'name'), ''));
  else {
    if (name.length > 63)
      causes.push(invalidValue(childPath(path, 'name'), name, 'must be no more than 63 characters'));
    if (!DNS1123_LABEL.test(name)) causes.push(invalidValue(childPath(path, 'name'), name, LABEL_MESSAGE));
  }
  if (typeof container.image !== 'string' || container.image.trim() === '')
    causes.push(requiredValue(childPath(path, 'image'), ''));
  causes.push(
    ...terminationMessagePolicyCauses(
      container.terminationMessagePolicy,
      childPath(path, 'terminationMessagePolicy'),
    ),
  );
  const ports = Array.isArray(container.ports) ? container.ports : [];
  ports.forEach((port, index) => {
    if (!isJsonObject(port)) return;
    const field = `${childPath(path, 'ports')}[${index}].containerPort`;
    if (port.containerPort === undefined || port.containerPort === 0) causes.push(requiredValue(field, ''));
    else causes.push(...portRangeCauses(field, port.containerPort));
  });
  causes.push(...envCauses(container.env, childPath(path, 'env')));
  causes.push(...resourceCauses(container.resources, childPath(path, 'resources')));
  causes.push(...containerProbeCauses(container, path));
  causes.push(...volumeMountCauses(container.volumeMounts, childPath(path, 'volumeMounts'), volumes));
  return causes;
}

/** Causes of `template.spec.containers` (path is the template's, e.g. `spec.template`). */
export function podTemplateCauses(template: unknown, path: string): Cause[] {
  const spec = isJsonObject(template) && isJsonObject(template.spec) ? template.spec : {};
  const specPath = childPath(path, 'spec');
  const field = childPath(specPath, 'containers');
  const volumes = volumeCauses(spec.volumes, childPath(specPath, 'volumes'));
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  if (containers.length === 0) return [...volumes.causes, requiredValue(field, '')];
  const causes = [
    ...volumes.causes,
    ...containers.flatMap((container, index) =>
      containerCauses(container, `${field}[${index}]`, volumes.names),
    ),
  ];
  const seen = new Set<string>();
  containers.forEach((container, index) => {
    const name = isJsonObject(container) && typeof container.name === 'string' ? container.name : '';
    if (name !== '' && seen.has(name)) causes.push(duplicate(`${field}[${index}].name`, name));
    seen.add(name);
  });
  return causes;
}
