export { renderEnv } from './render.ts';
export { formatValue } from './format-value.ts';
export type {
  AddressResolution,
  EnvNameCollision,
  RenderInput,
  RenderInstance,
  RenderLookups,
  RenderResult,
} from './types.ts';
