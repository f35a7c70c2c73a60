/**
 * The code the guides show is code CI runs: a block annotated `file` is that file of docs/examples
 * verbatim (type-checked under strict by this project's typecheck, run from the packed packages by
 * the controller's packaging test), the guides' TypeScript is all such files, and every shell block
 * of the tested pages either runs (test/pages.kube.test.ts, or the packaging test for a project of
 * the reader's own) or says why it cannot.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks, DOCS, isShell } from './support/markdown.ts';
import { TESTED_PAGES } from './support/pages.ts';

const GUIDES_WITH_CODE = ['docs/hooks.md', 'docs/plugins.md'];

describe('the code of the guides', () => {
  for (const page of new Set(TESTED_PAGES.map((tested) => tested.page))) {
    it(`${page}: every block annotated with a file shows that file verbatim`, () => {
      for (const block of codeBlocks(page)) {
        if (block.annotation?.kind !== 'file') continue;
        const file = readFileSync(join(DOCS, block.annotation.path), 'utf8');
        expect({ at: `${page}:${block.line}`, body: block.body }).toEqual({
          at: `${page}:${block.line}`,
          body: file,
        });
      }
    });

    it(`${page}: every shell block runs, or is skipped with a reason; at least one runs`, () => {
      const shell = codeBlocks(page).filter(isShell);
      expect(shell.filter((block) => block.annotation?.kind !== 'skip').length).toBeGreaterThan(0);
      for (const block of shell) {
        if (block.annotation?.kind === 'skip') expect(block.annotation.reason.length).toBeGreaterThan(10);
        else
          expect([undefined, 'background', 'project'], `${page}:${block.line}`).toContain(
            block.annotation?.kind,
          );
      }
    });
  }

  for (const page of GUIDES_WITH_CODE)
    it(`${page}: its project of your own is commands (run by the controller's packaging test), not prose`, () => {
      const project = codeBlocks(page).filter((block) => block.annotation?.kind === 'project');
      expect(project.filter(isShell).map((block) => block.body.split('\n')[0])).toContain('npm init -y');
      expect(
        project.some((block) => block.lang === 'json' && block.body.includes('"module": "nodenext"')),
      ).toBe(true);
    });

  for (const page of GUIDES_WITH_CODE)
    it(`${page}: its TypeScript is all in docs/examples, where CI type-checks and runs it`, () => {
      const typescript = codeBlocks(page).filter((block) => block.lang === 'ts');
      expect(typescript.length).toBeGreaterThan(0);
      expect(
        typescript.filter((block) => block.annotation?.kind !== 'file').map((block) => block.line),
      ).toEqual([]);
    });
});
