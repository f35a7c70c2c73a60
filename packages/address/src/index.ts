export type { UriAuthority, UriReference, UriParseResult } from './uri-reference.ts';
export { parseUriReference } from './parse-uri.ts';
export { serializeUri } from './serialize-uri.ts';
export { mergeUri } from './merge-uri.ts';
export type { Resolution } from './resolution.ts';
export type { ObjectReader, ObjectRef, ReadResult } from './object-reader.ts';
export { resolveDestination, type ResolveContext } from './resolve-destination.ts';
export { DEFAULT_CLUSTER_DOMAIN, detectClusterDomain } from './cluster-domain.ts';
export { loadClusterDomain, type ClusterDomainSources } from './load-cluster-domain.ts';
