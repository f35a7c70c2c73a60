#!/usr/bin/env node
/**
 * Rewrites every fenced block annotated `<!-- docs-test: file PATH -->` in docs/*.md with the current
 * content of docs/PATH, so a change to docs/examples reaches the guides: `npm run sync-examples -w
 * @scoby/docs`. test/docs-code.test.ts fails while a guide and its file differ.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const docs = join(import.meta.dirname, '../../../docs');
const block = /(<!-- docs-test: file (\S+) -->\n```\w*\n)([\s\S]*?)(^```$)/gm;

for (const name of readdirSync(docs, { recursive: true })) {
  if (!String(name).endsWith('.md') || String(name).startsWith('spec/')) continue;
  const page = join(docs, String(name));
  const text = readFileSync(page, 'utf8');
  const synced = text.replace(
    block,
    (_all, head, path, _body, close) => `${head}${readFileSync(join(docs, path), 'utf8')}${close}`,
  );
  if (synced !== text) {
    writeFileSync(page, synced);
    console.log(`synced ${String(name)}`);
  }
}
