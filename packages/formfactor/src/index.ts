export type * from './contract.ts';
export { adapterContainer, adapterPodSpec } from './adapter.ts';
export { standardMetadata } from './child-metadata.ts';
export {
  COMPONENT_LABEL,
  INSTANCE_LABEL,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  NAME_LABEL,
  PART_OF_LABEL,
  selectorLabels,
  standardLabels,
} from './labels.ts';
export {
  importDefaultExport,
  loadFormFactorPlugin,
  type DefaultExportImport,
  type PluginLoad,
} from './loader.ts';
export { childName, labelValue, subdomainChildName } from './names.ts';
export { observedCondition, type ObservedCondition } from './observed-condition.ts';
export { ownerReference } from './owner-reference.ts';
export { checkPluginShape, type ShapeCheck } from './plugin-shape.ts';
export {
  createFormFactorRegistry,
  RESERVED_FORM_FACTOR_NAMES,
  type FormFactorRegistry,
  type FormFactorSources,
  type RegistryCreation,
  type Resolution,
  type ResolvedFormFactor,
} from './registry.ts';
export { renderInputFor, type RenderContext } from './render-input.ts';
export { unservedApiMessage } from './required-apis.ts';
