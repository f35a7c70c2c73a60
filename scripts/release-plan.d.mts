/** Types of release-plan.mjs, for its tests. */
export interface Commit {
  hash: string;
  subject: string;
}
export type Manifest = Record<string, unknown> & { version?: string };
export function nextPatch(current: string): string;
export function assertVersion(version: string): void;
export function lockstepManifest<T extends Manifest>(manifest: T, version: string): T;
export function lockstepLock<T extends { packages: Record<string, Manifest> }>(
  lock: T,
  version: string,
  workspacePaths: string[],
): T;
export const VERSION_REFERENCES: Record<string, ((version: string) => string)[]>;
export function withVersionReferences(path: string, text: string, previous: string, version: string): string;
export function changelogSection(release: {
  version: string;
  date: string;
  since: string | undefined;
  commits: Commit[];
}): string;
export function changelogWith(existing: string | undefined, section: string): string;
