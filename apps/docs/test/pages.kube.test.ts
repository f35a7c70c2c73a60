/**
 * Every shell block of the tested pages (test/support/pages.ts) runs, in order, as a reader runs it:
 * on the in-memory embedded cluster, or on the real control plane (`--cluster kwok`) where the page
 * needs kube-apiserver's behaviour. A block fails the test when a command fails, or when the output
 * the page shows after it (a `text` block annotated `output`) no longer matches. A block annotated
 * `skip` is reported with its reason, one annotated `project` as run by the controller's packaging test.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { locateBinaries } from '@scoby/kube-control-plane';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, isShell, type CodeBlock } from './support/markdown.ts';
import { normaliseOutput } from './support/normalise.ts';
import { openPageSession, type PageSession } from './support/page-session.ts';
import { TESTED_PAGES } from './support/pages.ts';

const located = locateBinaries();

interface Step {
  block: CodeBlock;
  /** The output block the page shows after it. */
  output?: CodeBlock;
}

function stepsOf(page: string): { steps: Step[]; skipped: CodeBlock[] } {
  const blocks = codeBlocks(page);
  const steps: Step[] = [];
  const skipped: CodeBlock[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.annotation?.kind === 'save') steps.push({ block });
    if (!isShell(block)) continue;
    if (block.annotation?.kind === 'skip' || block.annotation?.kind === 'project') {
      skipped.push(block);
      continue;
    }
    const next = blocks[index + 1];
    steps.push({ block, output: next?.annotation?.kind === 'output' ? next : undefined });
  }
  return { steps, skipped };
}

/**
 * kubectl of the pinned release (`npm run kube-binaries`); a page on the in-memory cluster makes do
 * with a kubectl on PATH when the binaries are not built, and says so.
 */
function kubectlFolder(cluster: 'none' | 'memory' | 'kwok'): string {
  if (located.ok) return located.folder;
  const onPath = (process.env.PATH ?? '')
    .split(':')
    .find((folder) => folder !== '' && existsSync(join(folder, 'kubectl')));
  if (cluster === 'kwok' || onPath === undefined) throw new Error(located.message);
  console.log(`${located.message}; using the kubectl of ${onPath}`);
  return onPath;
}

const where = (block: CodeBlock): string => `${block.page}:${block.line}`;

function skipReason(block: CodeBlock): string {
  if (block.annotation?.kind === 'skip') return block.annotation.reason;
  return 'runs in a project of your own, outside the repository: apps/controller/test/packaging runs it against the packages published to a local registry';
}

for (const { page, cluster, sample = false } of TESTED_PAGES) {
  describe(`${page} (${cluster === 'none' ? 'the cluster it starts' : cluster})`, () => {
    const { steps, skipped } = stepsOf(page);
    let session: PageSession;

    beforeAll(async () => {
      for (const block of skipped) console.log(`skipped ${where(block)}: ${skipReason(block)}`);
      session = await openPageSession({
        kubectlFolder: kubectlFolder(cluster),
        cluster,
        sample,
        log: (line) => console.log(`${page}: ${line}`),
      });
    });

    afterAll(async () => {
      await session?.close();
    });

    for (const { block, output } of steps) {
      const annotation = block.annotation;
      const title = `${where(block)}: ${block.body.split('\n')[0]}`;
      if (annotation?.kind === 'save') {
        it(`${where(block)}: saved as ${annotation.name}`, async () => {
          await session.save(annotation.name, block.body);
        });
      } else if (annotation?.kind === 'background') {
        it(`${title} (in the background until "${annotation.ready}")`, async () => {
          await session.start(block, annotation.ready);
        });
      } else {
        it(title, async () => {
          const finished = await session.run(block);
          expect(finished, `${where(block)} failed:\n${finished.stderr}${finished.stdout}`).toMatchObject({
            code: 0,
          });
          if (output !== undefined)
            expect(normaliseOutput(finished.stdout)).toBe(normaliseOutput(output.body));
        });
      }
    }
  });
}
