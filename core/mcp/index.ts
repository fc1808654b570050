// Owns: the MCP tools agents call over stdio.
// Never: accepts or returns a filesystem path, or writes to stdout outside the protocol.
export { createMcpServer, serveStdio } from './server.js';
export type { PlanHere } from './setup.js';

