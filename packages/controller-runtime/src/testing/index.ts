/**
 * @scoby/controller-runtime/testing: what tests of a controller built on this package need: a clock
 * moved by hand, a logger whose lines can be read back, polling and hand-resolved promises.
 */
export { deferred, type Deferred } from './deferred.ts';
export { eventually } from './eventually.ts';
export { captureLogs, type CapturedLogs } from './log-capture.ts';
export { ManualClock, settle } from './manual-clock.ts';
