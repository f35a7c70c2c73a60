/**
 * The README a workspace package is published with: the workspace's own, with every link relative to
 * the package's folder made absolute on the repository's web page. In the repository such a link
 * reaches a source file or a page of docs/; on npmjs.com, or in a user's node_modules, the file is not
 * there (the package ships dist/, not its sources). Links that are URLs or anchors are kept as written.
 *
 * @param {string} readme the workspace's README.md
 * @param {{url: string, directory: string}} repository the package.json's `repository`
 * @param {string} ref the branch or tag the links name
 * @returns {string}
 */
export function publishedReadme(readme, repository, ref) {
  const web = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  const base = new URL(`${web}/tree/${ref}/${repository.directory}/`);
  return readme.replace(/(\]\()([^)\s]+)(\))/g, (link, open, target, close) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return link;
    const absolute = new URL(target, base);
    // GitHub shows a file under /blob/ and a folder under /tree/; a file's last segment has an extension.
    const file = /\.[a-z0-9]+$/i.test(absolute.pathname);
    if (file) absolute.pathname = absolute.pathname.replace(`/tree/${ref}/`, `/blob/${ref}/`);
    return `${open}${absolute.href}${close}`;
  });
}
