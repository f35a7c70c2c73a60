/** What this build is: `scoby --version` and the `scoby_build_info` metric. */
import { readFileSync } from 'node:fs';

export interface BuildInfo {
  /** The version of the controller package. */
  version: string;
  /** The Node.js runtime, as Go binaries report their Go version. */
  nodeVersion: string;
}

/** The controller's name on its log lines and as the source of its Events. */
export const COMPONENT = 'scoby-controller';

const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

export function buildInfo(): BuildInfo {
  const manifest = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string };
  return { version: manifest.version, nodeVersion: process.version };
}
