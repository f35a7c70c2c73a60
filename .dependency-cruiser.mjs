/**
 * The import graph of every package and app (dependency-cruiser): no import circles. Each project
 * runs it on its own folder (its `lint-imports` script, an nx target that `npm test` runs), so paths
 * here are relative to the project; apps/controller/.dependency-cruiser.mjs adds its layer order.
 *
 * Type-only imports count: a circle of types still ties the modules together (two files that can be
 * neither read nor moved apart), and eslint-plugin-import-x's no-cycle skips them.
 */
export const noCircular = {
  name: 'no-circular',
  severity: 'error',
  comment:
    'a module reaches itself again through its imports: move what both sides need into a module ' +
    'below both (a type with the values it describes, a shared shape in a file of its own)',
  from: {},
  to: { circular: true },
};

export const notToUnresolvable = {
  name: 'not-to-unresolvable',
  severity: 'error',
  comment: 'an import the resolver cannot follow hides the arrows behind it from the other rules',
  from: {},
  to: { couldNotResolve: true },
};

export const options = {
  // Other workspace packages are not followed: arrows between packages are nx's project graph, whose
  // circles @nx/enforce-module-boundaries (eslint) already refuses.
  doNotFollow: { path: ['(^|/)node_modules/', '^\\.\\./'] },
  exclude: { path: '(^|/)(dist|coverage|\\.scoby|\\.nx)/' },
  tsPreCompilationDeps: true,
  enhancedResolveOptions: {
    conditionNames: ['@scoby/source', 'import', 'require', 'node', 'default'],
    exportsFields: ['exports'],
    extensions: ['.ts', '.mts', '.js', '.mjs', '.json'],
  },
};

export default { forbidden: [noCircular, notToUnresolvable], options };
