/** apps/controller/README.md names the file of each behaviour: every file and folder it links exists. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const APP = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(`${APP}README.md`, 'utf8');
// Links into the repository; the package's own README also links the published documentation by URL.
const LINKS = [...README.matchAll(/\]\(([^)#]+)\)/g)]
  .map((match) => match[1] ?? '')
  .filter((link) => !/^[a-z]+:/.test(link));

describe('apps/controller/README.md', () => {
  it('links files', () => {
    expect(LINKS.filter((link) => link.startsWith('src/')).length).toBeGreaterThanOrEqual(30);
  });
  it('links only files and folders that exist', () => {
    expect(LINKS.filter((link) => !existsSync(`${APP}${link}`))).toEqual([]);
  });
  it('lists every spec section it names under a spec file that has it', () => {
    const missing: string[] = [];
    const firstCells = README.split('\n')
      .filter((line) => line.startsWith('| ') && line.includes('.md §'))
      .map((line) => line.split('|')[1] ?? '');
    for (const cell of firstCells) {
      for (const [, file, sections] of cell.matchAll(
        /([a-z0-9-]+\.md)((?:,? §\d+(?:\.\d+)?(?:–§\d+(?:\.\d+)?)?)+)/g,
      )) {
        const spec = readFileSync(`${APP}../../docs/spec/${file}`, 'utf8');
        for (const [section] of (sections ?? '').matchAll(/§\d+(\.\d+)?/g)) {
          if (!new RegExp(`^#+ ${section.slice(1).replace('.', '\\.')}[ .]`, 'm').test(spec))
            missing.push(`${file} ${section}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
