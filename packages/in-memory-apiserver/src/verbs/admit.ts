import type { KubeObject } from '@scoby/kube-objects';
import type { ResourceType } from '../resource-type.ts';
import type { Cause } from '@scoby/structural-schema';
import { invalid, ok, type Outcome } from '../status.ts';
import { strategyFor } from '../strategies/index.ts';
import { admitCustomResourceValue } from '../validation/custom-resource.ts';
import { validateObjectMeta } from '../validation/object-meta.ts';

/** Prune, default and validate a custom resource against its structural schema, like the real server. */
function admitCustomResource(
  type: ResourceType,
  version: string,
  object: KubeObject,
  old: KubeObject | undefined,
): { object: KubeObject; causes: Cause[] } {
  const schema = type.schemas.get(version) ?? type.schemas.get(type.versions[0] ?? '');
  if (schema === undefined) return { object, causes: [] };
  const checked = admitCustomResourceValue(schema, object, old);
  return { object: checked.value as KubeObject, causes: checked.causes };
}

/** ObjectMeta's collections are `omitempty` in Go: an empty list or map is not stored (e.g. the last finalizer removed). */
const OMIT_EMPTY_METADATA = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

function withoutEmptyMetadata(object: KubeObject): KubeObject {
  const empty = OMIT_EMPTY_METADATA.filter((key) => {
    const value = object.metadata[key];
    return (
      value !== undefined && value !== null && typeof value === 'object' && Object.keys(value).length === 0
    );
  });
  if (empty.length === 0) return object;
  const metadata = { ...object.metadata };
  for (const key of empty) delete metadata[key];
  return { ...object, metadata };
}

/**
 * API defaulting and validation every write goes through, before it is stored. `old` is the object an
 * update replaces, at the same version (transition rules compare with it).
 */
export function admit(
  type: ResourceType,
  version: string,
  object: KubeObject,
  old?: KubeObject,
): Outcome<KubeObject> {
  const strategy = strategyFor(type);
  const compacted = withoutEmptyMetadata(object);
  const defaulted = strategy.defaults ? strategy.defaults(compacted) : compacted;
  const custom = type.builtin
    ? { object: defaulted, causes: [] }
    : admitCustomResource(type, version, defaulted, old);
  const name = custom.object.metadata.name ?? '';
  const causes = [
    ...validateObjectMeta(type, custom.object),
    ...custom.causes,
    ...(strategy.validate ? strategy.validate(custom.object) : []),
    ...(old !== undefined && strategy.validateUpdate ? strategy.validateUpdate(custom.object, old) : []),
  ];
  if (causes.length > 0) return invalid(type, name, causes);
  return ok(custom.object);
}
