/**
 * `npm run release -- --dry-run` against a local registry that npm's configuration names for `@scoby`
 * (as the packaging test publishes): every publishable package at the release's version with its
 * `@scoby/*` dependencies pinned to it, as `npm view` reads them back; the chart and the changelog of
 * the release in the work copy; the work tree as it was.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY, run, type Finished } from '../packaging/consumer.ts';
import { startLocalRegistry, type LocalRegistry } from '../packaging/registry.ts';

const VERSION = '0.2.0-rc.1';
const SINCE = 'HEAD~2';

let work: string;
let registry: LocalRegistry | undefined;
let release: Finished;
let treeBefore: string;
let treeAfter: string;

/** What git sees of the work tree: changed and untracked files, and the changes themselves. */
async function workTreeState(): Promise<string> {
  const status = await run('git', ['status', '--porcelain=v1', '--untracked-files=all'], REPOSITORY);
  const diff = await run('git', ['diff', 'HEAD'], REPOSITORY);
  return `${status.stdout}\n${diff.stdout}`;
}

async function gitLines(args: string[]): Promise<string[]> {
  return (await run('git', args, REPOSITORY)).stdout.split('\n').filter(Boolean);
}

async function workspaceManifests(): Promise<
  { name: string; private?: boolean; dependencies?: Record<string, string> }[]
> {
  const query = await run('npm', ['query', '.workspace', '--json'], REPOSITORY);
  return JSON.parse(query.stdout) as {
    name: string;
    private?: boolean;
    dependencies?: Record<string, string>;
  }[];
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'scoby-release-test-'));
  registry = await startLocalRegistry(join(work, 'registry'));
  treeBefore = await workTreeState();
  release = await run(
    process.execPath,
    [
      join(REPOSITORY, 'scripts/release.mjs'),
      '--dry-run',
      '--version',
      VERSION,
      '--since',
      SINCE,
      '--work-copy',
      join(work, 'copy'),
    ],
    REPOSITORY,
    registry.env,
  );
  treeAfter = await workTreeState();
});

afterAll(async () => {
  await registry?.stop();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe('npm run release -- --dry-run', () => {
  it('publishes to the registry npm is configured with and says the work tree is as it was', () => {
    expect(release.stderr).toBe('');
    expect(release.code).toBe(0);
    const lines = release.stdout.split('\n');
    expect(lines).toContain(`release: publishing to ${registry!.url}`);
    expect(lines).toContain(`release: dry run of ${VERSION} done; the work tree is as it was`);
    expect(release.stdout).not.toContain('publishes to a local registry instead');
  });

  it('leaves the work tree as it was', () => {
    expect(treeAfter).toBe(treeBefore);
  });

  it('publishes every publishable package at the version, its @scoby dependencies pinned to it', async () => {
    const workspaces = await workspaceManifests();
    const publishable = workspaces.filter((workspace) => workspace.private !== true);
    expect(publishable.map(({ name }) => name)).toContain('@scoby/controller');
    for (const workspace of publishable) {
      const view = await run(
        'npm',
        ['view', `${workspace.name}@${VERSION}`, 'version', 'dependencies', '--json'],
        work,
        registry!.env,
      );
      expect(view.code, `npm view ${workspace.name}@${VERSION}: ${view.stderr}`).toBe(0);
      const published = JSON.parse(view.stdout) as { version: string; dependencies?: Record<string, string> };
      expect(published.version).toBe(VERSION);
      const internal = (dependencies: Record<string, string> = {}): string[] =>
        Object.keys(dependencies).filter((name) => name.startsWith('@scoby/'));
      expect(internal(published.dependencies)).toEqual(internal(workspace.dependencies));
      for (const name of internal(published.dependencies))
        expect(published.dependencies![name], `${workspace.name} → ${name}`).toBe(VERSION);
      const versions = await run('npm', ['view', workspace.name, 'versions', '--json'], work, registry!.env);
      expect(JSON.parse(versions.stdout)).toEqual([VERSION]);
    }
  });

  it("bumps the chart's version and appVersion in the work copy", async () => {
    const chart = await readFile(join(work, 'copy/deploy/helm/scoby/Chart.yaml'), 'utf8');
    expect(chart).toMatch(new RegExp(`^version: ${VERSION}$`, 'm'));
    expect(chart).toMatch(new RegExp(`^appVersion: ${VERSION}$`, 'm'));
  });

  it('writes a changelog section of the commit subjects since the base, newest first', async () => {
    const changelog = await readFile(join(work, 'copy/CHANGELOG.md'), 'utf8');
    const subjects = await gitLines(['log', '--no-merges', '--format=%s (%h)', `${SINCE}..HEAD`]);
    const date = new Date().toISOString().slice(0, 10);
    expect(changelog).toContain(
      [
        `## ${VERSION} (${date})`,
        '',
        `Since \`${SINCE}\`:`,
        '',
        ...subjects.map((line) => `- ${line}`),
        '',
      ].join('\n'),
    );
  });
});
