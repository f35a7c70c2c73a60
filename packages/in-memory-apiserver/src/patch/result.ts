/** The outcome of a patch that can fail: the patched document or a message saying why not. */
export type PatchResult = { ok: true; value: unknown } | { ok: false; message: string };

export const patched = (value: unknown): PatchResult => ({ ok: true, value });
export const rejected = (message: string): PatchResult => ({ ok: false, message });
