// The layer rules of src/, checked by `npm run lint` (README "Code layout"). Each layer may import
// only the layers below it:
//   core → services → sandbox | notebook → catalogue → history → features → agents → cli | editor → extension.ts
// (catalogue: what each service accepts, read by the editor's completions and `api-workbench check`;
// agents: the tools agents call, under both the MCP server and the editor's language-model tools)
// plus src/webview (the pages inside webviews, built for the browser), whose message contracts
// (src/webview/**/protocol.ts) the extension side may import. Only src/editor and src/extension.ts
// import vscode, and every file in src/editor needs it: one that does not belongs in src/features.
const { existsSync } = require('node:fs');

const LAYERS = {
  core: ['core'],
  services: ['core', 'services'],
  sandbox: ['core', 'services', 'sandbox'],
  notebook: ['core', 'services', 'notebook'],
  catalogue: ['core', 'services', 'sandbox', 'notebook', 'catalogue'],
  history: ['core', 'services', 'notebook', 'history'],
  features: ['core', 'services', 'sandbox', 'notebook', 'catalogue', 'history', 'features', 'webview-protocol'],
  agents: ['core', 'services', 'notebook', 'catalogue', 'history', 'features', 'agents'],
  webview: ['core', 'services', 'notebook', 'webview'],
  cli: ['core', 'services', 'sandbox', 'notebook', 'catalogue', 'history', 'features', 'agents', 'cli'],
  editor: ['core', 'services', 'sandbox', 'notebook', 'catalogue', 'history', 'features', 'agents', 'webview-protocol', 'editor'],
};
/** `vscode` as the cruiser resolves it: its types package, or the bare name where that is not installed. */
const VSCODE = '(^|/)vscode(/index\\.d\\.ts)?$';
const WEBVIEW_PROTOCOL = '^src/webview/.*protocol\\.ts$';
/** The editor's service modules (and the foundation's commands and HTTP clients), each bundled on its own and loaded when first needed. */
const LAZY_BUNDLES = ['llm', 'maps', 'realtime', 'notebook', 'foundation'];

function allowedPaths(layer) {
  const own = LAYERS[layer].filter((l) => l !== 'webview-protocol').map((l) => `^src/${l}/`);
  if (LAYERS[layer].includes('webview-protocol')) own.push(WEBVIEW_PROTOCOL);
  return own;
}

const layerRules = Object.keys(LAYERS).map((layer) => ({
  name: `layer-${layer}`,
  comment: `src/${layer} may import only ${LAYERS[layer].join(', ')}: an arrow up a layer (or sideways) is a design change, not a shortcut`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: allowedPaths(layer) },
}));

const lazyBundleRules = LAZY_BUNDLES.flatMap((name) => [
  {
    name: `bundle-${name}-internals`,
    comment: `src/editor/${name} is a bundle of its own: from outside, import only its index.ts (types) or register.ts (what activation needs)`,
    severity: 'error',
    from: { path: '^src/', pathNot: `^src/editor/${name}/` },
    to: { path: `^src/editor/${name}/`, pathNot: `^src/editor/${name}/(index|register)\\.ts$` },
  },
  {
    name: `bundle-${name}-loaded-lazily`,
    comment: `src/editor/${name}/index.ts is loaded by src/editor/bundles.ts when first needed: other files import its types only`,
    severity: 'error',
    from: { path: '^src/', pathNot: [`^src/editor/${name}/`, '^src/editor/bundles\\.ts$'] },
    to: { path: `^src/editor/${name}/index\\.ts$`, dependencyTypesNot: ['type-only'] },
  },
]);

module.exports = {
  required: [
    {
      name: 'editor-needs-vscode',
      comment:
        'every file in src/editor adapts something to VS Code, so it imports vscode (if only its types); one that does not belongs in src/features, with plain mocha tests',
      severity: 'error',
      // Structural exceptions: a bundle's entry and the loader only name editor modules, and the
      // notebook host adapts the editor's Services (vscode-bound) to the engine's NotebookHost.
      module: {
        path: '^src/editor/',
        pathNot: ['^src/editor/(llm|maps|realtime|notebook|foundation)/index\\.ts$', '^src/editor/bundles\\.ts$', '^src/editor/notebookHost\\.ts$'],
      },
      to: { path: VSCODE },
    },
  ],
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import circle: split the shared part into a file both import',
      severity: 'error',
      from: {},
      // bundles.ts requires the *built* bundles (dist/<name>.js), which the cruiser reads as their sources.
      to: { circular: true, viaOnly: { pathNot: '^src/editor/bundles\\.ts$' } },
    },
    {
      name: 'vscode-only-in-editor',
      comment: 'only src/editor and src/extension.ts may import vscode: everything else runs (and is tested) without an editor',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/editor/', '^src/extension\\.ts$'] },
      to: { path: VSCODE },
    },
    {
      name: 'extension-entry',
      comment: 'src/extension.ts wires the editor layer; nothing imports it',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/extension\\.ts$' },
    },
    {
      name: 'notebook-public-module',
      comment:
        'outside the engine, import src/notebook/api.ts (its public module; runApi.ts, the part a run needs; cassetteApi.ts, what recording adds), not its internals',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/notebook/' },
      to: { path: '^src/notebook/', pathNot: '^src/notebook/(api|runApi|cassetteApi)\\.ts$' },
    },
    {
      name: 'engine-internals-not-through-api',
      comment:
        'files inside src/notebook import each other directly; api.ts, runApi.ts and cassetteApi.ts are for front ends (importing them inside makes circles)',
      severity: 'error',
      from: { path: '^src/notebook/', pathNot: '^src/notebook/(api|runApi|cassetteApi)\\.ts$' },
      to: { path: '^src/notebook/(api|runApi|cassetteApi)\\.ts$' },
    },
    ...layerRules,
    ...lazyBundleRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(out|dist|node_modules)/' },
    tsPreCompilationDeps: true,
    ...(existsSync('tsconfig.json') ? { tsConfig: { fileName: 'tsconfig.json' } } : {}),
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
