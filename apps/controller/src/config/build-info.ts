/** What this build is: `scoby --version` and the `scoby_build_info` metric. */
import { readFileSync } from 'node:fs';
import { packageFile } from '../package-files.ts';

export interface BuildInfo {
  /** The version of the controller package. */
  version: string;
  /** The Node.js runtime, as Go binaries report their Go version. */
  nodeVersion: string;
}

/** The controller's name on its log lines and as the source of its Events. */
export const COMPONENT = 'scoby-controller';

/** The field manager of every write the controller makes (children, status, finalizers, Events, Leases). */
export const FIELD_MANAGER = 'scoby-controller';

/** `scoby-controller/<version>`, as its hook requests say; kube-apiserver would name a manager after it. */
export function userAgent(info: BuildInfo = buildInfo()): string {
  return `${FIELD_MANAGER}/${info.version}`;
}

export function buildInfo(): BuildInfo {
  const manifest = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
  return { version: manifest.version, nodeVersion: process.version };
}
