/** The §6.4 message templates. Messages end up in conditions and Events, hence the length cap. */
import type { HookPhase } from './types.ts';

export const MAX_MESSAGE_LENGTH = 1024;

export function cutMessage(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? text.slice(0, MAX_MESSAGE_LENGTH) : text;
}

export function httpErrorMessage(phase: HookPhase, status: number, hookMessage: string): string {
  const prefix = `${phase} hook: HTTP ${status}`;
  return cutMessage(hookMessage === '' ? prefix : `${prefix}: ${hookMessage}`);
}

export function timeoutMessage(phase: HookPhase, url: string, timeoutMs: number): string {
  return cutMessage(`${phase} hook: request to ${url} timed out after ${timeoutMs / 1000}s`);
}

export function transportErrorMessage(phase: HookPhase, url: string, cause: string): string {
  return cutMessage(`${phase} hook: request to ${url} failed: ${cause}`);
}

/** `detail` is what follows `invalid response: `, e.g. `children.service: missing`. */
export function invalidResponseMessage(phase: HookPhase, detail: string): string {
  return cutMessage(`${phase} hook: invalid response: ${detail}`);
}
