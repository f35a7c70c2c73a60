export type { PatchResult } from './result.ts';
export { applyJsonPatch } from './json-patch.ts';
export { applyMergePatch } from './merge-patch.ts';
export { applyStrategicMergePatch } from './strategic-merge.ts';
export { applyServerSideApply } from './server-side-apply.ts';
export { listStrategy, type ListStrategy } from './merge-keys.ts';
