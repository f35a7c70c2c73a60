import { BUILTIN_TYPES } from './builtin-types.ts';
import { keyOf, type ResourceType } from './resource-type.ts';
import { compareVersionPriority } from '@scoby/kube-objects';

export interface ApiGroupVersions {
  group: string;
  /** Served versions, preferred first. */
  versions: string[];
}

/** The resources currently served: the built-in ones plus one per established CRD. */
export class ResourceRegistry {
  private readonly types = new Map<string, ResourceType>();

  constructor() {
    for (const type of BUILTIN_TYPES) this.types.set(keyOf(type), type);
  }

  set(type: ResourceType): void {
    this.types.set(keyOf(type), type);
  }

  remove(key: string): void {
    this.types.delete(key);
  }

  byKey(key: string): ResourceType | undefined {
    return this.types.get(key);
  }

  /** The type served at /apis/<group>/<version>/<plural>, if any. */
  find(group: string, version: string, plural: string): ResourceType | undefined {
    for (const type of this.types.values()) {
      if (type.group === group && type.plural === plural && type.versions.includes(version)) return type;
    }
    return undefined;
  }

  inGroupVersion(group: string, version: string): ResourceType[] {
    return [...this.types.values()].filter((type) => type.group === group && type.versions.includes(version));
  }

  /** Every served group with its versions, core ('') first, then in order of registration. */
  groups(): ApiGroupVersions[] {
    const byGroup = new Map<string, Set<string>>();
    for (const type of this.types.values()) {
      const versions = byGroup.get(type.group) ?? new Set<string>();
      for (const version of type.versions) versions.add(version);
      byGroup.set(type.group, versions);
    }
    return [...byGroup].map(([group, versions]) => ({
      group,
      versions: [...versions].sort(compareVersionPriority),
    }));
  }
}
