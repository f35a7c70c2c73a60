/**
 * The fenced code blocks of a documentation page (read by the docs' tests, apps/docs/test, and by the
 * controller's packaging test, which follows the guides' projects of your own), each with the `docs-test` annotation that may stand
 * in an HTML comment right before it (blank lines between are allowed):
 *
 * - `<!-- docs-test: skip REASON -->`: not run; the test prints the reason.
 * - `<!-- docs-test: file PATH -->`: the block is the file PATH (relative to docs/), verbatim.
 * - `<!-- docs-test: save NAME -->`: the block is written to NAME in the page's work folder.
 * - `<!-- docs-test: background READY -->`: a long-running command, started in the background; the
 *   page goes on once a line of its output contains READY, and it is stopped when the page ends.
 * - `<!-- docs-test: output -->` before a `text` block: the output of the shell block before it, as
 *   normalised by normaliseOutput.
 * - `<!-- docs-test: project [background READY | FILE] -->`: a step of a project of the reader's own,
 *   outside the repository, run by the controller's packaging test (apps/controller/test/packaging)
 *   in an empty folder against the packages published to a local registry, not by the pages test: a
 *   shell block run there (in the background until a line contains READY), or a block saved there as
 *   FILE. That test also saves there every block annotated `file`, under the file's name.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));
export const DOCS = join(REPOSITORY, 'docs');

export type Annotation =
  | { kind: 'skip'; reason: string }
  | { kind: 'file'; path: string }
  | { kind: 'save'; name: string }
  | { kind: 'background'; ready: string }
  | { kind: 'output' }
  | { kind: 'project'; ready?: string; save?: string };

export interface CodeBlock {
  /** The page, relative to the repository. */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  body: string;
  annotation?: Annotation;
}

const ANNOTATION = /^<!-- docs-test: (skip|file|save|background|output|project)\s*(.*?)\s*-->$/;

function parseAnnotation(kind: string, argument: string, where: string): Annotation {
  if (kind === 'output') return { kind };
  if (kind === 'project') {
    if (argument === '') return { kind };
    const background = /^background\s+(.+)$/.exec(argument);
    return background === null ? { kind, save: argument } : { kind, ready: background[1] ?? '' };
  }
  if (argument === '') throw new Error(`${where}: docs-test ${kind} needs an argument`);
  if (kind === 'skip') return { kind, reason: argument };
  if (kind === 'file') return { kind, path: argument };
  if (kind === 'save') return { kind, name: argument };
  return { kind: 'background', ready: argument };
}

export function codeBlocks(page: string): CodeBlock[] {
  const path = join(REPOSITORY, page);
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  let pending: Annotation | undefined;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index] ?? '';
    const trimmed = text.trim();
    const annotation = ANNOTATION.exec(trimmed);
    if (annotation !== null) {
      pending = parseAnnotation(
        annotation[1] ?? '',
        annotation[2] ?? '',
        `${relative(REPOSITORY, path)}:${index + 1}`,
      );
      continue;
    }
    const fence = /^(\s*)(```+)(\S*)\s*$/.exec(text);
    if (fence === null) {
      if (trimmed !== '') pending = undefined;
      continue;
    }
    const indent = fence[1] ?? '';
    const close = `${indent}${fence[2] ?? '```'}`;
    const body: string[] = [];
    const line = index + 1;
    for (index++; index < lines.length && (lines[index] ?? '').trimEnd() !== close; index++)
      body.push((lines[index] ?? '').slice(indent.length));
    blocks.push({
      page,
      line,
      lang: fence[3] ?? '',
      body: body.map((l) => `${l}\n`).join(''),
      annotation: pending,
    });
    pending = undefined;
  }
  return blocks;
}

export const isShell = (block: CodeBlock): boolean => block.lang === 'sh' || block.lang === 'bash';
