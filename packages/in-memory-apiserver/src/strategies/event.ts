import type { KubeObject } from '@scoby/kube-objects';
import type { TypeStrategy } from './strategy.ts';
import { validateCoreEvent } from '../validation/event.ts';

/**
 * An Event's eventTime is a MicroTime struct in Go, which `omitempty` never leaves out: an Event written
 * without one reads back with `eventTime: null` (core v1 and events.k8s.io/v1 alike).
 */
export const eventsV1Strategy: TypeStrategy = {
  defaults(object: KubeObject): KubeObject {
    return 'eventTime' in object && object.eventTime !== undefined ? object : { ...object, eventTime: null };
  },
};

/** Core v1 Events are validated as kube-apiserver validates Events written in v1. */
export const eventStrategy: TypeStrategy = { ...eventsV1Strategy, validate: validateCoreEvent };
