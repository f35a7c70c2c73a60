export { renderEnv } from './render.ts';
export { compareByteOrder } from './byte-order.ts';
export { compactJson } from './compact-json.ts';
export { formatValue } from './format-value.ts';
export type {
  AddressResolution,
  EnvNameCollision,
  RenderInput,
  RenderInstance,
  RenderLookups,
  RenderResult,
} from './types.ts';
