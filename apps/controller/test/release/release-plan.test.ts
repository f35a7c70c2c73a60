import { describe, expect, it } from 'vitest';
import {
  assertVersion,
  changelogSection,
  changelogWith,
  lockstepLock,
  lockstepManifest,
  nextPatch,
  withVersionReferences,
} from '../../../../scripts/release-plan.mjs';

describe('lockstep versions', () => {
  it('sets the version and pins every @scoby dependency of every kind to it, leaving the others', () => {
    const manifest = {
      name: '@scoby/env',
      version: '0.1.0',
      private: false,
      dependencies: { '@scoby/registration': '^0.1.0', yaml: '^2.8.1' },
      devDependencies: { '@scoby/kube-control-plane': '^0.1.0', tsx: '^4.23.15' },
      peerDependencies: { '@scoby/formfactor': '*' },
      optionalDependencies: { '@scoby/hooks-v1': '~0.1.0' },
    };
    expect(lockstepManifest(manifest, '0.2.0')).toEqual({
      name: '@scoby/env',
      version: '0.2.0',
      private: false,
      dependencies: { '@scoby/registration': '0.2.0', yaml: '^2.8.1' },
      devDependencies: { '@scoby/kube-control-plane': '0.2.0', tsx: '^4.23.15' },
      peerDependencies: { '@scoby/formfactor': '0.2.0' },
      optionalDependencies: { '@scoby/hooks-v1': '0.2.0' },
    });
    expect(manifest.version).toBe('0.1.0');
  });

  it('adds no dependency field a manifest lacks', () => {
    expect(lockstepManifest({ name: '@scoby/kube-objects', version: '0.1.0' }, '1.0.0')).toEqual({
      name: '@scoby/kube-objects',
      version: '1.0.0',
    });
  });

  it('edits the lock entries of the root and the workspaces, not those of installed packages', () => {
    const lock = {
      name: 'scoby-ts',
      version: '0.1.0',
      lockfileVersion: 3,
      packages: {
        '': { name: 'scoby-ts', version: '0.1.0', workspaces: ['packages/*'] },
        'packages/env': {
          name: '@scoby/env',
          version: '0.1.0',
          dependencies: { '@scoby/registration': '^0.1.0' },
        },
        'node_modules/@scoby/env': { resolved: 'packages/env', link: true },
        'node_modules/yaml': { version: '2.8.1', dependencies: { '@scoby/not-ours': '^0.1.0' } },
      },
    };
    expect(lockstepLock(lock, '0.2.0', ['packages/env'])).toEqual({
      name: 'scoby-ts',
      version: '0.2.0',
      lockfileVersion: 3,
      packages: {
        '': { name: 'scoby-ts', version: '0.2.0', workspaces: ['packages/*'] },
        'packages/env': {
          name: '@scoby/env',
          version: '0.2.0',
          dependencies: { '@scoby/registration': '0.2.0' },
        },
        'node_modules/@scoby/env': { resolved: 'packages/env', link: true },
        'node_modules/yaml': { version: '2.8.1', dependencies: { '@scoby/not-ours': '^0.1.0' } },
      },
    });
  });

  it('bumps the patch by default and accepts only semantic versions', () => {
    expect(nextPatch('0.1.9')).toBe('0.1.10');
    expect(() => nextPatch('0.1.0-rc.1')).toThrow('cannot bump "0.1.0-rc.1": give --version');
    expect(() => assertVersion('1.2.3-rc.1')).not.toThrow();
    expect(() => assertVersion('v1.2.3')).toThrow('"v1.2.3" is not a semantic version (1.2.3 or 1.2.3-rc.1)');
  });
});

describe('the files that name the controller version', () => {
  it('names the new version wherever the old one was named', () => {
    const dockerfile =
      'FROM x\n# docker build -t scoby-controller:0.1.0 .\nARG VERSION=0.1.0\nLABEL v=$VERSION\n';
    expect(withVersionReferences('Dockerfile', dockerfile, '0.1.0', '0.2.0')).toBe(
      'FROM x\n# docker build -t scoby-controller:0.2.0 .\nARG VERSION=0.2.0\nLABEL v=$VERSION\n',
    );
  });

  it('refuses a file that no longer names the old version, rather than releasing it unchanged', () => {
    expect(() =>
      withVersionReferences('deploy/20-deployment.yaml', 'image: scoby-controller:0.0.9\n', '0.1.0', '0.2.0'),
    ).toThrow('deploy/20-deployment.yaml does not contain "scoby-controller:0.1.0"');
  });
});

describe('the changelog', () => {
  const section = changelogSection({
    version: '0.2.0',
    date: '2026-11-29',
    since: 'v0.1.0',
    commits: [
      { hash: 'f74d250', subject: 'Spec: §8.2 says what §8.10 says' },
      { hash: '9dd241c', subject: 'pack-packages: prettier' },
    ],
  });

  it('lists the commit subjects since the base, newest first, with their hashes', () => {
    expect(section).toBe(
      [
        '## 0.2.0 (2026-11-29)',
        '',
        'Since `v0.1.0`:',
        '',
        '- Spec: §8.2 says what §8.10 says (f74d250)',
        '- pack-packages: prettier (9dd241c)',
        '',
      ].join('\n'),
    );
    expect(changelogSection({ version: '0.1.0', date: '2026-01-01', since: undefined, commits: [] })).toBe(
      '## 0.1.0 (2026-01-01)\n\nSince the first commit:\n\n- No changes.\n',
    );
  });

  it('starts the file, or goes above the previous releases under the heading', () => {
    const first = changelogWith(undefined, section);
    expect(first.startsWith('# Changelog\n\nOne section a release, newest first:')).toBe(true);
    expect(first.endsWith(`\n\n${section}`)).toBe(true);
    const older = '## 0.1.0 (2026-01-01)\n\nSince the first commit:\n\n- No changes.\n';
    expect(changelogWith(`# Changelog\n\nIntro.\n\n${older}`, section)).toBe(
      `# Changelog\n\nIntro.\n\n${section}\n${older}`,
    );
    expect(changelogWith('# Changelog\n', section)).toBe(`# Changelog\n\n${section}`);
  });
});
