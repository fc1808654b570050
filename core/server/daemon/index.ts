// Owns: daemon.json, where a running owner advertises its address, token and protocol to clients on this machine.
// Never: loads the Core or the HTTP server: a CLI verb reads it to reach the owner without loading either.
export { daemonFile, DaemonInfo, readDaemonInfo, removeDaemonInfo, writeDaemonInfo } from './daemon.js';
