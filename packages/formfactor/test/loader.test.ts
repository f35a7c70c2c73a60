import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadFormFactorPlugin } from '../src/index.ts';

const TEST_DIR = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(TEST_DIR, 'fixtures');
const LOADER = pathToFileURL(join(TEST_DIR, '../src/loader.ts')).href;

/** The loaded plugin's name, or the refusal, as printed by loadFormFactorPlugin run by this test's node. */
async function pluginNameUnderPlainNode(
  specifier: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = [
    `const { loadFormFactorPlugin } = await import(${JSON.stringify(LOADER)});`,
    `const loaded = await loadFormFactorPlugin(${JSON.stringify(specifier)}, ${JSON.stringify(FIXTURES)});`,
    'console.log(loaded.ok ? loaded.plugin.name : loaded.message);',
  ].join('\n');
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--no-warnings', '--conditions=@scoby/source', '--input-type=module', '--eval', script],
      { encoding: 'utf8' },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? null, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('loadFormFactorPlugin: accepted modules', () => {
  it('loads a path relative to fromDir', async () => {
    const loaded = await loadFormFactorPlugin('./minimal-plugin.mjs', FIXTURES);
    expect(loaded.ok && loaded.plugin.name).toBe('configMapOnly');
  });

  it('loads an absolute path and a file: URL', async () => {
    const path = join(FIXTURES, 'minimal-plugin.mjs');
    const fromPath = await loadFormFactorPlugin(path, '/nonexistent');
    const fromUrl = await loadFormFactorPlugin(pathToFileURL(path).href);
    expect(fromPath.ok && fromPath.plugin.managedKinds).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap' }]);
    expect(fromUrl.ok && fromUrl.plugin.name).toBe('configMapOnly');
  });

  // Under plain node: Vitest's own module loader unwraps a CommonJS `exports.default` where node does not.
  it.each([
    ['tsc-commonjs-plugin.cjs', 'exports.default beside __esModule, as tsc emits for CommonJS'],
    ['module-exports-default.cjs', 'module.exports = {default: plugin}'],
    ['commonjs-plugin.cjs', 'module.exports = plugin'],
  ])('loads a CommonJS module under plain node: %s (%s)', async (file) => {
    expect(await pluginNameUnderPlainNode(`./${file}`)).toEqual({
      code: 0,
      stdout: 'configMapOnly\n',
      stderr: '',
    });
  });
});

describe('loadFormFactorPlugin: refusals', () => {
  it('lists every missing or wrong field of the default export', async () => {
    expect(await loadFormFactorPlugin('./incomplete-plugin.mjs', FIXTURES)).toEqual({
      ok: false,
      message:
        'plugin "./incomplete-plugin.mjs": default export has invalid "requiredApis" (array of strings), ' +
        'has invalid "managedKinds" (array of {apiVersion, kind} strings), lacks "render" (function)',
    });
    expect(await loadFormFactorPlugin('./empty-object.mjs', FIXTURES)).toEqual({
      ok: false,
      message:
        'plugin "./empty-object.mjs": default export lacks "name" (non-empty string), lacks "blockSchema" (JSON Schema object), ' +
        'lacks "requiredApis" (array of strings), lacks "managedKinds" (array of {apiVersion, kind} strings), ' +
        'lacks "conditionTypes" (array of strings), lacks "render" (function), lacks "status" (function)',
    });
  });

  it('refuses a default export that is not an object', async () => {
    expect(await loadFormFactorPlugin('./default-not-object.mjs', FIXTURES)).toEqual({
      ok: false,
      message: 'plugin "./default-not-object.mjs": default export is not an object',
    });
  });

  it('refuses a module without a default export', async () => {
    expect(await loadFormFactorPlugin('./no-default-export.mjs', FIXTURES)).toEqual({
      ok: false,
      message: 'plugin "./no-default-export.mjs": the module has no default export',
    });
  });

  it('refuses a package without a default export', async () => {
    expect(await loadFormFactorPlugin('@scoby/kube-objects')).toEqual({
      ok: false,
      message: 'plugin "@scoby/kube-objects": the module has no default export',
    });
  });

  it('reports the error a module throws while loading', async () => {
    expect(await loadFormFactorPlugin('./throws-on-import.mjs', FIXTURES)).toEqual({
      ok: false,
      message: 'plugin "./throws-on-import.mjs": cannot be imported: QUEUE_ENDPOINT is not set',
    });
  });

  it('reports a file or package that does not exist', async () => {
    const missingFile = await loadFormFactorPlugin('./missing.mjs', FIXTURES);
    expect(missingFile.ok).toBe(false);
    expect(!missingFile.ok && missingFile.message).toMatch(
      /^plugin "\.\/missing\.mjs": cannot be imported: .*missing\.mjs/,
    );
    const missingPackage = await loadFormFactorPlugin('@scoby/no-such-form-factor');
    expect(!missingPackage.ok && missingPackage.message).toMatch(
      /^plugin "@scoby\/no-such-form-factor": cannot be imported: .*@scoby\/no-such-form-factor/,
    );
  });
});
