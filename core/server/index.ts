// Owns: headless mode's loopback HTTP transport (the door, /rpc, /events, /remember and its cookie, the panel's static files) and the owner's lifecycle (daemon.json).
// Never: listens beyond loopback or serves data without the token (a bearer header, or the panel's cookie beside its header).
export { startOwner, type Owner, type OwnerOptions } from './owner.js';
export { CONTENT_SECURITY_POLICY } from './http.js';
export { toRpcError } from './rpc.js';
export { readDaemonInfo, DaemonInfo } from './daemon.js';
