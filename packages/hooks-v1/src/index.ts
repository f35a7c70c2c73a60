/**
 * Both sides of hooks v1 in one entry, kept for compatibility: a controller imports
 * `@scoby/hooks-v1/client`, a hook author `@scoby/hooks-v1/sdk`.
 */
export * from './client-entry.ts';
export * from './sdk-entry.ts';
export { setLongTimeout, MAX_TIMER_DELAY_MS } from '@scoby/kube-objects';
