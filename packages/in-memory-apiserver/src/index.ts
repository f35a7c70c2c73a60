export { startApiServer, type ApiServerOptions, type InMemoryApiServer } from './server.ts';
export type { BlackHoleOptions, Faults, FaultMatch } from './faults.ts';
export type { Verb } from './resource-type.ts';
export type { RequestLog, RequestLogEntry } from './request-log.ts';
export type { AccessDenial, Authorization } from './authorization.ts';
