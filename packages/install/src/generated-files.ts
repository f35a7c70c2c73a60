/** Every generated install file, by path from the repository root. */
import { join } from 'node:path';
import { chartFiles } from './chart.ts';
import { CHART_DIR, RELEASE_MANIFEST } from './paths.ts';
import { releaseManifest } from './release-manifest.ts';
import type { InstallSources } from './sources.ts';

export function generatedFiles(sources: InstallSources): Record<string, string> {
  const chart = Object.entries(chartFiles(sources)).map(([path, text]) => [join(CHART_DIR, path), text]);
  return { ...Object.fromEntries(chart), [RELEASE_MANIFEST]: releaseManifest(sources) };
}
