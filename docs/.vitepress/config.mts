// The documentation site: `npx nx run docs:docs` builds docs/ into apps/docs/dist; VitePress fails the
// build on a relative link to a page that does not exist (ignoreDeadLinks stays off).
import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';

const DOCS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPOSITORY = resolve(DOCS, '..');
const SOURCE_URL = 'https://github.com/scoby-ts/scoby/blob/main/';

/**
 * A relative link from a page to a file of the repository outside docs/ (`../packages/hooks-v1`)
 * works on GitHub but not on the site: it becomes a link to the file on GitHub, and the build fails
 * when the file does not exist, as VitePress fails it for a missing page.
 */
function repositoryLink(href: string, page: string): string | undefined {
  if (/^([a-z][a-z0-9+.-]*:|#|\/)/i.test(href)) return undefined;
  const [path = '', anchor] = href.split('#');
  const target = resolve(DOCS, dirname(page), decodeURIComponent(path));
  if (target === DOCS || target.startsWith(`${DOCS}/`)) return undefined;
  if (!existsSync(target))
    throw new Error(`dead link ${href} in ${page}: ${relative(REPOSITORY, target)} does not exist`);
  return `${SOURCE_URL}${relative(REPOSITORY, target)}${anchor === undefined ? '' : `#${anchor}`}`;
}

export default defineConfig({
  title: 'Scoby',
  description:
    'Declarative controllers for registered CRDs, drop-in compatible with scoby.triggermesh.io/v1alpha1',
  base: process.env.DOCS_BASE ?? '/',
  outDir: '../apps/docs/dist',
  cacheDir: '../apps/docs/.vitepress-cache',
  srcExclude: ['reference/examples/**'],
  lastUpdated: false,
  markdown: {
    config(md) {
      md.core.ruler.push('repository-links', (state) => {
        const page = (state.env as { relativePath?: string }).relativePath ?? '';
        for (const token of state.tokens.flatMap((block) => [block, ...(block.children ?? [])])) {
          const href = token.type === 'link_open' ? token.attrGet('href') : null;
          const link = href === null ? undefined : repositoryLink(href, page);
          if (link !== undefined) token.attrSet('href', link);
        }
      });
    },
  },
  themeConfig: {
    search: { provider: 'local' },
    nav: [
      { text: 'Guide', link: '/quick-start' },
      { text: 'Reference', link: '/reference/crdregistration' },
      { text: 'Operations', link: '/operations/install' },
      { text: 'Specification', link: '/spec/README' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Quick start', link: '/quick-start' },
          { text: 'Concepts', link: '/concepts' },
          { text: 'Tutorial: your own CRD', link: '/tutorial' },
          { text: 'Environment customisation', link: '/environment' },
          { text: 'Hooks', link: '/hooks' },
          { text: 'Form-factor plugins', link: '/plugins' },
          { text: 'Render and validate offline', link: '/render-and-validate' },
          { text: 'Migrating from TriggerMesh Scoby', link: '/migration' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'CRDRegistration fields', link: '/reference/crdregistration' },
          { text: 'Controller runtime (library)', link: '/reference/controller-runtime' },
        ],
      },
      {
        text: 'Operations',
        items: [
          { text: 'Install', link: '/operations/install' },
          { text: 'Upgrade', link: '/operations/upgrade' },
          { text: 'Uninstall', link: '/operations/uninstall' },
          { text: 'High availability', link: '/operations/high-availability' },
          { text: 'Metrics', link: '/operations/metrics' },
          { text: 'Logs', link: '/operations/logs' },
          { text: 'Controller image', link: '/operations/image' },
          { text: 'A cluster in one container (e2e)', link: '/operations/node-container' },
          { text: 'Troubleshooting', link: '/operations/troubleshooting' },
          { text: 'Benchmarks', link: '/operations/benchmarks' },
          { text: 'Release', link: '/operations/release' },
          { text: 'Security', link: '/security' },
        ],
      },
      {
        text: 'Specification (normative)',
        items: [
          { text: 'Overview', link: '/spec/README' },
          { text: 'CRDRegistration', link: '/spec/registration' },
          { text: 'Environment and volumes', link: '/spec/env' },
          { text: 'Children and status', link: '/spec/children-and-status' },
          { text: 'Addresses', link: '/spec/address' },
          { text: 'Hooks API v1', link: '/spec/hooks-v1' },
        ],
      },
    ],
  },
});
