export { lastActiveAt } from '../../../../core/api/reading.js';

/** What the list says in "Last activity" for a project that holds no conversation (see lastActiveAt). */
export const NO_CONVERSATIONS = 'No conversations';
