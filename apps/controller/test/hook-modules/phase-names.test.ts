/**
 * Everything that handles hook phases as such reads hooks-v1's phase table; a phase is spelled by
 * hand only in the table and in the code of its own behaviour. This guard lists the hand-written
 * source files (not tests, not *.generated.ts) that spell a phase name, a capability spelling or a
 * handler name as a string literal, so that a new hand-spelled phase fails here instead of being
 * found by grep when the next phase is added.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { hookPhases } from '@scoby/hooks-v1/client';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

function sourceFiles(): string[] {
  const roots = [
    ...readdirSync(join(ROOT, 'packages')).map((name) => join(ROOT, 'packages', name, 'src')),
    join(ROOT, 'apps/controller/src'),
  ];
  return roots.flatMap((dir) => {
    let names: string[];
    try {
      names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    } catch {
      return [];
    }
    return names
      .filter((name) => /\.[cm]?tsx?$/.test(name) && !/\.generated\.[cm]?tsx?$/.test(name))
      .filter((name) => !/\.test\.[cm]?tsx?$/.test(name))
      .map((name) => join(dir, name));
  });
}

/** The string literals of `file` (template literals without substitutions included) equal to one of `names`. */
function spelledNames(file: string, names: ReadonlySet<string>): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.has(node.text))
      found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('hook phase names in the source', () => {
  it('are spelled only in the phase table and the code of their behaviour', () => {
    const names = new Set(
      hookPhases().flatMap(({ phase, capabilities, handler }) => [phase, ...capabilities, handler]),
    );
    const spelling = Object.fromEntries(
      sourceFiles()
        .map((file) => [relative(ROOT, file), [...new Set(spelledNames(file, names))].sort()] as const)
        .filter(([, found]) => found.length > 0),
    );
    expect(spelling).toEqual({
      // The phase table itself: every name of every row.
      'packages/hooks-v1/src/phases.ts': [...names].sort(),
      // pre-reconcile's behaviour: what the plan does with its answer.
      'apps/controller/src/instance/plan/after-hook.ts': ['pre-reconcile'],
      // A Namespace's finalize subresource, no hook phase.
      'packages/in-memory-apiserver/src/http/route.ts': ['finalize'],
    });
  });
});
