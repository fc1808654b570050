// Owns: nothing of its own: the secret-shape table of ../patterns.ts, reachable without the redactor's dependencies.
// Never: grows rules here (they live in patterns.ts); it exists for entry points that must start fast, such as the session-start hook.
export { redactSecrets, hasSecret, REDACTED } from '../patterns.js';
