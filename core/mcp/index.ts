export { createMcpServer, serveStdio } from './server.js';
export { registerProjectTools, type WithClient } from './projects.js';
export { filterStatus, registerMaintenanceTools, MaintenanceStatusInput, MaintenanceStatusOutput, type MaintenanceStatus, type MaintenanceStatusFilter } from './maintenance.js';
