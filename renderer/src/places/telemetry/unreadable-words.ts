// What can be done about a file Steward could not read, and its words, live in core/api/import-words.ts
// (which imports nothing, so the panel loads it at run time): the CLI says the same of the same file.
export { byRemedy, remedyOf, remedyWords, whatIsWrong, type Remedy } from '../../../../core/api/import-words.js';
