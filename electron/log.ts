import log from 'electron-log/main';
import { formatLogLine, LOG_WRITE_OPTIONS, prepareLogFile, type Logger, type LogFields } from '../core/index.js';

/**
 * electron-log writes STEWARD_HOME/logs/main.log — the file headless mode's core/log writes — and the
 * Core logs through this adapter, so one writer holds the file and every line is scrubbed the same way.
 */
export function createElectronLogger(homeDir: string): Logger {
  const { file, modeFailure } = prepareLogFile(homeDir);
  // No injected preload: the page gets exactly call/on from our own preload and nothing else.
  log.initialize({ preload: false, spyRendererConsole: false });
  log.transports.file.resolvePathFn = () => file;
  log.transports.file.writeOptions = { ...LOG_WRITE_OPTIONS };
  log.transports.file.maxSize = 5 * 1024 * 1024;
  log.transports.console.level = 'warn';
  const write = (level: 'info' | 'warn' | 'error', message: string, fields?: LogFields) => log[level](formatLogLine(message, fields));
  log.errorHandler.startCatching({
    showDialog: false,
    // An uncaught error's message may hold a path or content: only its kind reaches the file.
    onError: ({ error, errorName }) => {
      write('error', 'uncaught error', { kind: errorName, name: error.name });
      return false;
    },
  });
  if (modeFailure) write('warn', 'the logs could not be made private', { code: modeFailure });
  return {
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}
