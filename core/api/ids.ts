import { z } from 'zod';
import { PROJECT_KEY_SHAPE } from './names.js';

/** Identifiers several areas of the contract share. */
export const ProjectKey = z.string().regex(PROJECT_KEY_SHAPE, 'expected a projectKey like p_0123456789abcdef');

/**
 * A repository as filters name it: OWNER/NAME, or a canonical id such as github.com/OWNER/NAME, whose
 * host names a non-default port (git.local:3000/OWNER/NAME: two forges on one host); never a path.
 */
export const REPO_ID_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}(?:(\/[A-Za-z0-9._-]{1,100}){1,3}|:[0-9]{1,5}(\/[A-Za-z0-9._-]{1,100}){2,3})$/;
export const RepoId = z.string().regex(REPO_ID_SHAPE, 'expected OWNER/NAME or a canonical id such as github.com/OWNER/NAME');

/** A caller's idempotency key: replaying it returns the first result; reusing it for other content is refused. */
export const IdempotencyKey = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'expected 1-128 letters, digits or . _ : -');

/** A conversation as stored: a Claude session uuid (`…:agent-…` for a subagent), an OpenClaw `oc:…` id. */
export const SessionId = z
  .string()
  .min(1, 'the session id is empty')
  .max(300)
  .refine((id) => ![...id].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f), 'expected a session id');
