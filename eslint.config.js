// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import rooms from './eslint.rooms.js';

/** Node built-ins, with and without the node: prefix, which the renderer (a browser page) must never import. */
const NODE_BUILTINS = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'worker_threads', 'stream', 'events'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'release/**', '.bench/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // core/ is plain Node: testable without Electron and without the browser. Its rooms meet only at
    // their index.ts, and imports run down the layers of DESIGN.md (eslint.rooms.js).
    files: ['core/**/*.ts'],
    plugins: { steward: rooms },
    rules: {
      'steward/room-borders': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'core/ never imports electron: Electron wiring lives in electron/.' }],
          patterns: [
            { group: ['electron/*'], message: 'core/ never imports electron.' },
            { group: ['**/renderer', '**/renderer/**'], message: 'core/ never imports the renderer.' },
            { group: ['**/electron/**'], message: 'core/ never imports electron/.' },
          ],
        },
      ],
    },
  },
  {
    // The panel runs these files of the contract in the browser: they must pull nothing else in (zod, Node).
    files: ['core/api/reading.ts', 'core/api/registry.ts', 'core/api/part-words.ts', 'core/api/import-words.ts', 'core/api/maintenance-words.ts', 'core/api/names.ts', 'core/api/indexing-words.ts', 'core/api/sweeper-words.ts', 'core/api/root-words.ts', 'core/api/retention-words.ts', 'core/api/date-text.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '.*', message: 'The panel loads this file at run time: it imports nothing.' }] }] },
  },
  {
    // The renderer is a browser page: only the contract's types, its providers and how a conversation reads cross into it.
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['renderer/vite.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer reaches Electron only through the preload bridge.' }],
          patterns: [
            { group: NODE_BUILTINS, message: 'The renderer runs in a browser: no Node built-ins.' },
            { regex: '(^|/)core/(?!api/(index|reading|registry|part-words|import-words|maintenance-words|document-sources|names|indexing-words|sweeper-words|root-words|retention-words|date-text)\\.js$)', message: 'The renderer may import only the contract (core/api/index.js, its types) and the files of it that import nothing: the providers (registry.js), how a conversation reads (reading.js), what roles and parts are called (part-words.js), what an import left out (import-words.js), why a cache sync failed (maintenance-words.js), what local document folders are called (document-sources.js), how a person names a project (names.js), what a search says while the index is re-tagged (indexing-words.js), why a sweep of notes did not run (sweeper-words.js), why a folder set is left out (root-words.js), what a clean-up would take for good (retention-words.js), how a person writes a date (date-text.js).' },
            { group: ['**/electron/**'], message: 'The renderer never imports electron/.' },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)core/(?!api/(reading|registry|part-words|import-words|maintenance-words|document-sources|names|indexing-words|sweeper-words|root-words|retention-words|date-text)\\.js$)', allowTypeImports: true, message: 'Only types may be imported from the contract.' }] },
      ],
    },
  },
  {
    // Steward answers tools/call itself (core/mcp/tools.ts): a tool registered past defineTool would be
    // listed by the SDK and then refused as unknown, so defineTool is the one way in.
    files: ['core/**/*.ts'],
    ignores: ['core/mcp/tools.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='registerTool']", message: 'Register an MCP tool with defineTool (core/mcp/tools.ts): Steward answers tools/call only for tools defined there.' }],
    },
  },
  {
    files: ['electron/**/*.ts', 'electron/**/*.cts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/renderer/**'], message: 'electron/ never imports the renderer.' }] }],
    },
  },
  {
    files: ['electron/**/*.cts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
