export { startOwner, type Owner, type OwnerOptions } from './owner.js';
export { startHttpServer, CONTENT_SECURITY_POLICY, type RunningHttpServer, type HttpServerOptions } from './http.js';
export { checkDoor, allowedHosts, allowedOrigins } from './door.js';
export { createRpcServer, toRpcError } from './rpc.js';
export { readDaemonInfo, writeDaemonInfo, removeDaemonInfo, daemonFile, DaemonInfo } from './daemon.js';
