// ESLint flat config: typescript-eslint's type-checked recommended rules over everything the
// project compiles (src, test, scripts). `npm run lint` runs it alone; `npm test` runs it first and
// counts each problem as a failure in its closing "N passed, N failed" line.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'media/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Unused parameters are checked by tsc (noUnusedParameters), which honours a leading underscore.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // esbuild.mjs hands every bundle the API object VS Code gave the extension; a namespace import of
    // it would be copied, property by property, once per importing file at activation (issue 39).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='vscode'][importKind!='type'] > ImportNamespaceSpecifier",
          message:
            "Import the VS Code API as `import vscode from 'vscode'` (or `import type * as vscode` for types only): esbuild copies a namespace import per file.",
        },
      ],
    },
  },
);
