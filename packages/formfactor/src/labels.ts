/** The standard labels of children (docs/spec/children-and-status.md §4.2). */
import { labelValue } from './names.ts';

export const NAME_LABEL = 'app.kubernetes.io/name';
export const INSTANCE_LABEL = 'app.kubernetes.io/instance';
export const COMPONENT_LABEL = 'app.kubernetes.io/component';
export const PART_OF_LABEL = 'app.kubernetes.io/part-of';
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_VALUE = 'scoby-controller';

/** The three labels used in selectors and pod templates. */
export function selectorLabels(registrationName: string, instanceName: string): Record<string, string> {
  return {
    [NAME_LABEL]: labelValue(registrationName),
    [INSTANCE_LABEL]: labelValue(instanceName),
    [COMPONENT_LABEL]: 'workload',
  };
}

/** The five labels every child carries. */
export function standardLabels(registrationName: string, instanceName: string): Record<string, string> {
  return {
    ...selectorLabels(registrationName, instanceName),
    [PART_OF_LABEL]: 'scoby-component',
    [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
  };
}
