// Owns: history — full-text search over captured conversations, reading them in order, export (redacted by default), forgetting with tombstones.
// Never: queries gateway tables itself (it reads and writes through the gateway's index, readers and eraser) or imports capture/ or sweeper/.
export { History, type HistoryOptions } from './history.js';
export { historyHandlers } from './handlers.js';
