export type { LabelMatcher, ParsedFieldSelector, ParsedLabelSelector, SelectableObject } from './result.ts';
export {
  formatLabelSelector,
  labelSelectorFromObject,
  parseLabelSelector,
  type LabelSelector,
  type LabelSelectorRequirement,
} from './label-selector.ts';
export { parseFieldSelector, type SelectableFields } from './field-selector.ts';
export { selectableFields } from './selectable-fields.ts';
