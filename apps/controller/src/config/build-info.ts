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

export function buildInfo(): BuildInfo {
  const manifest = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
  return { version: manifest.version, nodeVersion: process.version };
}
