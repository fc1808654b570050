// Owns: log files in STEWARD_HOME/logs and the scrubbing of every log line.
// Never: writes transcript text, a credential or a cache path; a caught error is logged by its code.
import { join } from 'node:path';
import nodeLog from 'electron-log/node';
import { ensurePrivateDir, HOME_FILES, PRIVATE_FILE_MODE, tightenMode } from '../config/index.js';
import { redactSecrets } from '../secrets/index.js';
import type { LogLevel } from '../api/index.js';

import { consoleMirror } from './console.js';

export { errorCode, CodeTally, type CodeCount } from './codes/index.js';
export { consoleMirror } from './console.js';

/**
 * Fields are counts, durations, ids and enum-like words. Transcript text, filesystem paths of caches,
 * credentials and URLs never belong in a log line; callers pass those as nothing at all.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;
export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const MAX_LOG_VALUE = 500;

/** Last line of defence: even a careless field cannot put a token-shaped string into a log file. Redact, then cut. */
export function scrubLogValue(value: string): string {
  return redactSecrets(value).slice(0, MAX_LOG_VALUE);
}

/** One scrubbed log line; the Electron app's electron-log adapter writes the same lines. */
export function formatLogLine(message: string, fields?: LogFields): string {
  if (!fields) return scrubLogValue(message);
  const parts = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(scrubLogValue(v)) : String(v)}`);
  return `${scrubLogValue(message)} ${parts.join(' ')}`.trim();
}

export interface FileLoggerOptions {
  /**
   * Mirror lines to stderr (never stdout: headless mode's stdout carries exactly one line), while it is
   * there: once its reader goes away the lines go to the file only (consoleMirror).
   */
  stderr?: boolean;
}

export const LOG_FILE = 'main.log';

/**
 * The logs folder and file, private (0700/0600) whoever created STEWARD_HOME; the one place both the
 * headless logger and the Electron app's electron-log take them from. Returns the file's path and the
 * code of any mode that could not be tightened.
 */
export function prepareLogFile(home: string): { file: string; modeFailure: string | undefined } {
  const dir = join(home, HOME_FILES.logs);
  const file = join(dir, LOG_FILE);
  const modeFailure = ensurePrivateDir(dir) ?? tightenMode(file) ?? tightenMode(join(dir, 'main.old.log'));
  return { file, modeFailure };
}

/** electron-log's options for writing the log file: appended, created 0600. */
export const LOG_WRITE_OPTIONS = { flag: 'a', mode: PRIVATE_FILE_MODE, encoding: 'utf8' } as const;

/** Rotating files in STEWARD_HOME/logs, the same files the Electron app's electron-log writes. */
export function createFileLogger(home: string, options: FileLoggerOptions = {}): Logger {
  const { file, modeFailure } = prepareLogFile(home);
  const log = nodeLog.create({ logId: `steward-${process.pid}-${Date.now()}` });
  // Outside Electron, electron-log names the app from the package.json nearest the working
  // directory and, finding none, silently writes nothing: the path is ours, so the name is too.
  log.transports.file.setAppName('steward');
  log.transports.file.resolvePathFn = () => file;
  log.transports.file.writeOptions = { ...LOG_WRITE_OPTIONS };
  log.transports.file.maxSize = 5 * 1024 * 1024;
  log.transports.console.level = false;
  // The console's going is noted in the file, so its silence from then on is explained.
  const mirror = options.stderr ? consoleMirror(process.stderr, (code) => log.warn(formatLogLine('stderr went away; logging to this file only', { code }))) : undefined;
  const write = (level: 'info' | 'warn' | 'error', message: string, fields?: LogFields): void => {
    const text = formatLogLine(message, fields);
    log[level](text);
    mirror?.(`[${level}] ${text}\n`);
  };
  if (modeFailure) write('warn', 'the logs could not be made private', { code: modeFailure });
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

/** For tests and for the in-process CLI when it must not create files. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string, fields?: LogFields) => void lines.push(`${level} ${formatLogLine(message, fields)}`);
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}

const SEVERITY: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };

/** A logger whose least serious level (`log.level`) can change while Steward runs. */
export interface LeveledLogger extends Logger {
  readonly level: LogLevel;
  setLevel(level: LogLevel): void;
}

/** Lines below `level` are dropped before they are formatted; errors always pass. */
export function withLevel(inner: Logger, level: LogLevel): LeveledLogger {
  let current = level;
  const gate = (at: LogLevel, write: (message: string, fields?: LogFields) => void) => (message: string, fields?: LogFields) => {
    if (SEVERITY[at] >= SEVERITY[current]) write(message, fields);
  };
  return {
    get level() {
      return current;
    },
    setLevel: (next) => {
      current = next;
    },
    info: gate('info', (m, f) => inner.info(m, f)),
    warn: gate('warn', (m, f) => inner.warn(m, f)),
    error: gate('error', (m, f) => inner.error(m, f)),
  };
}
