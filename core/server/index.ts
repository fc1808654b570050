// Owns: headless mode's loopback HTTP transport (the door, /rpc, /events, the panel's static files) and the owner's lifecycle (daemon.json).
// Never: listens beyond loopback or serves data without the bearer token.
export { startOwner, type Owner, type OwnerOptions } from './owner.js';
export type { CommandWait, WhileCommandRuns } from './command-wait.js';
export { CONTENT_SECURITY_POLICY } from './http.js';
export { toRpcError } from './rpc.js';
export { readDaemonInfo, DaemonInfo } from './daemon/index.js';
