/**
 * The fields each resource can be selected by (`?fieldSelector=`), as kube-apiserver's strategies and
 * field label conversions define them: metadata.name and metadata.namespace for every resource,
 * Namespaces status.phase (and no metadata.namespace), Secrets type, Services spec.clusterIP and
 * spec.type, core Events their involved object, reason, source, reporting component and type,
 * events.k8s.io Events the same under their own names, custom resources their CRD's selectableFields.
 */
import type { ResourceType } from '../resource-type.ts';
import { coreEventOf } from '../events/event-shapes.ts';
import { fieldValue, type SelectableFields } from './field-selector.ts';
import type { SelectableObject } from './result.ts';

function byPath(...paths: string[]): SelectableFields {
  return Object.fromEntries(
    paths.map((path) => [path, (object: SelectableObject) => fieldValue(object, path)]),
  );
}

const METADATA = byPath('metadata.name', 'metadata.namespace');

/** ToSelectableFields of core Events, read from the core shape whichever API stored the Event. */
function eventFields(): Record<string, (object: SelectableObject) => string> {
  const core = (path: string) => (object: SelectableObject) =>
    fieldValue(coreEventOf(object as never) as SelectableObject, path);
  const involved = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
  return {
    ...Object.fromEntries(
      involved.map((field) => [`involvedObject.${field}`, core(`involvedObject.${field}`)]),
    ),
    reason: core('reason'),
    reportingComponent: core('reportingComponent'),
    source: (object) => core('source.component')(object) || core('reportingComponent')(object),
    type: core('type'),
  };
}

/** events.k8s.io/v1's field label conversion: its names for the core fields (no `source`). */
function eventsV1Fields(): SelectableFields {
  const fields = eventFields();
  const involved = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
  return {
    ...Object.fromEntries(
      involved.map((field) => [`regarding.${field}`, fields[`involvedObject.${field}`]!]),
    ),
    reason: fields.reason!,
    reportingController: fields.reportingComponent!,
    type: fields.type!,
  };
}

const BUILTIN_FIELDS: Record<string, SelectableFields> = {
  '/namespaces': byPath('metadata.name', 'status.phase'),
  '/secrets': { ...METADATA, ...byPath('type') },
  '/services': { ...METADATA, ...byPath('spec.clusterIP', 'spec.type') },
  '/events': { ...METADATA, ...eventFields() },
  'events.k8s.io/events': { ...METADATA, ...eventsV1Fields() },
};

export function selectableFields(type: ResourceType, version: string): SelectableFields {
  const custom = type.customResource?.versions.find(
    (candidate) => candidate.name === version,
  )?.selectableFields;
  if (custom !== undefined) {
    return { ...METADATA, ...byPath(...custom.map((field) => field.jsonPath.replace(/^\./, ''))) };
  }
  return BUILTIN_FIELDS[`${type.group}/${type.plural}`] ?? METADATA;
}
