/**
 * The controller's import graph: no circles (the workspace's rules) and the layer order of `src/`'s
 * folders, read from the `import-layers` block of README.md so the documented order is the checked
 * one. Paths are relative to apps/controller, where `npm run lint-imports` runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import workspace from '../../.dependency-cruiser.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * Arrows against the layer order that are allowed, each by name, until the move README.md names for
 * it is made. An entry whose arrow is gone, or no longer runs against the order, fails the check:
 * the list only shrinks.
 */
const ALLOWED_AGAINST_ORDER = [];

/** The layers of README.md's import-layers block, highest first; each a list of `name/` or `file.ts`. */
export function readLayers(readme) {
  const marker = readme.indexOf('<!-- import-layers:');
  const block = marker < 0 ? undefined : /```text\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (block === undefined || block === null)
    throw new Error(
      'apps/controller/README.md has no import-layers block (<!-- import-layers: … --> then ```text)',
    );
  const layers = block[1]
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const words = line.trim().split(/\s+/);
      const end = words.findIndex((word) => !/^[\w.-]+(\/|\.ts)$/.test(word));
      return end < 0 ? words : words.slice(0, end);
    });
  const empty = layers.findIndex((names) => names.length === 0);
  if (empty >= 0) throw new Error(`import-layers line ${empty + 1} names no folder or file`);
  return layers;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The modules of one layer entry: a folder's files, or one file directly in src/. */
const entryPath = (name) => (name.endsWith('/') ? `^src/${escape(name)}` : `^src/${escape(name)}$`);
const filePath = (file) => `^${escape(file)}$`;

function entryOf(layers, file) {
  for (const names of layers)
    for (const name of names)
      if (new RegExp(entryPath(name)).test(file)) return { name, layer: layers.indexOf(names) };
  return undefined;
}

/** The relative imports of a file, resolved to paths like `src/…`. */
function importsOf(file) {
  const text = readFileSync(join(HERE, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)].map((match) => match[1]);
  return new Set(specifiers.map((specifier) => normalize(join(dirname(file), specifier))));
}

/** The arrows of README.md's table of arrows against the order, as `src/…` paths. */
function documentedArrows(readme) {
  const rows = [...readme.matchAll(/^\| `([\w./-]+) → ([\w./-]+)` \|/gm)];
  return new Set(rows.map(([, from, to]) => `src/${from} → src/${to}`));
}

/** Each allowed arrow must still exist, still run against the order, and be in README.md's table. */
function checkAllowed(layers, readme) {
  const documented = documentedArrows(readme);
  const allowed = new Set(ALLOWED_AGAINST_ORDER.map(({ from, to }) => `${from} → ${to}`));
  for (const arrow of documented)
    if (!allowed.has(arrow))
      throw new Error(`README.md lists ${arrow} against the order, ALLOWED_AGAINST_ORDER does not`);
  for (const { from, to } of ALLOWED_AGAINST_ORDER) {
    const arrow = `${from} → ${to}`;
    if (!existsSync(join(HERE, from)) || !importsOf(from).has(to))
      throw new Error(
        `the allowed arrow ${arrow} is gone: remove it from ALLOWED_AGAINST_ORDER and README.md`,
      );
    const source = entryOf(layers, from);
    const target = entryOf(layers, to);
    if (source !== undefined && target !== undefined && source.layer < target.layer)
      throw new Error(
        `the allowed arrow ${arrow} follows the layer order: remove it from ALLOWED_AGAINST_ORDER`,
      );
    if (!documented.has(arrow))
      throw new Error(`the allowed arrow ${arrow} needs its row in README.md (Layers)`);
  }
}

/** One rule per layer entry: its files import their own entry and the layers below, nothing else. */
export function layerRules(layers) {
  const rules = [];
  layers.forEach((names, layer) => {
    const below = layers.slice(layer + 1).flat();
    for (const name of names) {
      const allowed = [name, ...below].map(entryPath);
      const excepted = ALLOWED_AGAINST_ORDER.filter(({ from }) => new RegExp(entryPath(name)).test(from));
      const comment = `${name} imports only ${below.length === 0 ? 'its own files' : `its own files and ${below.join(' ')}`} (apps/controller/README.md, Layers)`;
      rules.push({
        name: `layers: ${name}`,
        severity: 'error',
        comment,
        from: { path: entryPath(name), pathNot: excepted.map(({ from }) => filePath(from)) },
        to: { path: '^src/', pathNot: allowed },
      });
      for (const from of new Set(excepted.map((arrow) => arrow.from))) {
        const targets = excepted.filter((arrow) => arrow.from === from).map(({ to }) => filePath(to));
        rules.push({
          name: `layers: ${name} (allowed arrows of ${from})`,
          severity: 'error',
          comment,
          from: { path: filePath(from) },
          to: { path: '^src/', pathNot: [...allowed, ...targets] },
        });
      }
    }
  });
  rules.push({
    name: 'layers: unplaced',
    severity: 'error',
    comment: 'every folder and file directly in src/ has a place in the layers of apps/controller/README.md',
    from: { path: '^src/', pathNot: layers.flat().map(entryPath) },
    to: { path: '^src/' },
  });
  return rules;
}

const readme = readFileSync(join(HERE, 'README.md'), 'utf8');
const layers = readLayers(readme);
checkAllowed(layers, readme);

export default {
  forbidden: [...workspace.forbidden, ...layerRules(layers)],
  options: workspace.options,
};
