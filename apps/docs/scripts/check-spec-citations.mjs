// The code cites the normative spec as `<file>.md §N` or `§N.M` (e.g. "docs/spec/registration.md §6.4"): the
// files are docs/spec/<file>.md. Fails, listing each one, when a cited file or section does not exist.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const spec = join(root, 'docs/spec');
const SEARCHED = ['apps', 'packages', 'e2e', 'deploy', 'crds'];
const SKIPPED = new Set(['node_modules', 'dist', '.vitepress-cache', '.nx', 'coverage']);
const citation =
  /\b(registration|env|address|children-and-status|hooks-v1)\.md((?:,? ?§ ?\d+(?:\.\d+)*(?:[–-]§?\d+(?:\.\d+)*)?)*)/g;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (/\.(ts|mts|mjs|js|ya?ml|md|json)$/.test(entry.name)) yield path;
  }
}

/** Section numbers of a spec file: "## 6. Lifecycle" → 6, "### 6.4 Two …" → 6.4. */
function sections(file) {
  const numbers = new Set();
  for (const line of readFileSync(join(spec, file), 'utf8').split('\n')) {
    const heading = /^#{2,4} (\d+(?:\.\d+)*)\.? /.exec(line);
    if (heading) numbers.add(heading[1]);
  }
  return numbers;
}

const known = new Map(
  readdirSync(spec)
    .filter((file) => file.endsWith('.md'))
    .map((file) => [file, sections(file)]),
);
const broken = [];
let count = 0;
for (const dir of SEARCHED) {
  for (const path of files(join(root, dir))) {
    for (const [index, line] of readFileSync(path, 'utf8').split('\n').entries()) {
      for (const match of line.matchAll(citation)) {
        count += 1;
        const file = `${match[1]}.md`;
        const where = `${relative(root, path)}:${index + 1}`;
        if (!known.has(file)) {
          broken.push(`${where}: ${file} is not in docs/spec`);
          continue;
        }
        for (const number of match[2].match(/\d+(?:\.\d+)*/g) ?? []) {
          if (!known.get(file).has(number)) broken.push(`${where}: ${file} has no section §${number}`);
        }
      }
    }
  }
}
if (broken.length > 0) {
  process.stderr.write(
    `spec citations: ${broken.length} of ${count} do not resolve in docs/spec:\n${broken.join('\n')}\n`,
  );
  process.exit(1);
}
process.stdout.write(`spec citations: all ${count} resolve in docs/spec\n`);
