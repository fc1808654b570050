export { createMcpServer, serveStdio } from './server.js';
export { projectContaining, registerProjectTools, type WithClient } from './projects.js';
