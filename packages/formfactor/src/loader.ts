/**
 * Loads a form-factor plugin from a module (ES or CommonJS) whose default export implements the
 * contract, and the default export of any module an operator names. The only I/O of the package: the dynamic import().
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FormFactorPlugin } from './contract.ts';
import { checkPluginShape } from './plugin-shape.ts';

export type PluginLoad = { ok: true; plugin: FormFactorPlugin } | { ok: false; message: string };

/** `./x.mjs`, `../x.mjs`, `/abs/x.mjs` and `file:` URLs are files; anything else is a package name. */
function importTarget(specifier: string, fromDir: string): string {
  if (specifier.startsWith('file:')) return specifier;
  if (specifier.startsWith('./') || specifier.startsWith('../') || isAbsolute(specifier)) {
    return pathToFileURL(resolve(fromDir, specifier)).href;
  }
  return specifier;
}

/**
 * @param specifier npm package name (resolved from this package's location, i.e. the controller's
 *   node_modules) or a file path, relative paths taken from `fromDir`.
 */
export async function loadFormFactorPlugin(
  specifier: string,
  fromDir: string = process.cwd(),
): Promise<PluginLoad> {
  const label = `plugin ${JSON.stringify(specifier)}`;
  const imported = await importDefaultExport(specifier, fromDir, label);
  if (!imported.ok) return imported;
  const shape = checkPluginShape(imported.value);
  return shape.ok
    ? { ok: true, plugin: shape.plugin }
    : { ok: false, message: `${label}: default export ${shape.defects.join(', ')}` };
}

export type DefaultExportImport = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * The default export of a module an operator named (a plugin, an in-process hook): a package name
 * resolved from the controller's node_modules, or a file path with relative paths taken from
 * `fromDir`. Failures are messages starting with `label`.
 */
export async function importDefaultExport(
  specifier: string,
  fromDir: string,
  label: string,
): Promise<DefaultExportImport> {
  let module: Record<string, unknown>;
  try {
    module = (await import(importTarget(specifier, fromDir))) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, message: `${label}: cannot be imported: ${(error as Error).message}` };
  }
  if (!('default' in module)) return { ok: false, message: `${label}: the module has no default export` };
  return { ok: true, value: commonJsDefault(module) };
}

/**
 * node gives a CommonJS module's `module.exports` as the default export, so the `exports.default`
 * that tsc emits for `export default` in a CommonJS project sits one level down (docs/spec/hooks-v1.md
 * §10.1): taken from there when `module.exports` carries `__esModule` (node lists it among the names
 * it detects) or has `default` as its only property. An ES module's default export is as it is.
 */
function commonJsDefault(module: Record<string, unknown>): unknown {
  const value = module['default'];
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, 'default')) return value;
  const exported = value as Record<string, unknown>;
  const marked = module['__esModule'] === true || exported['__esModule'] === true;
  return marked || Object.keys(exported).length === 1 ? exported['default'] : value;
}
