// Owns: log files in STEWARD_HOME/logs and the scrubbing of every log line.
// Never: writes transcript text, a credential or a cache path; a caught error is logged by its code.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import nodeLog from 'electron-log/node';
import { redactSecrets } from '../secrets/index.js';

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
  /** Mirror lines to stderr (never stdout: headless mode's stdout carries exactly one line). */
  stderr?: boolean;
}

/** Rotating files in STEWARD_HOME/logs, the same files the Electron app's electron-log writes. */
export function createFileLogger(home: string, options: FileLoggerOptions = {}): Logger {
  const dir = join(home, 'logs');
  mkdirSync(dir, { recursive: true });
  const log = nodeLog.create({ logId: `steward-${process.pid}-${Date.now()}` });
  log.transports.file.resolvePathFn = () => join(dir, 'main.log');
  log.transports.file.maxSize = 5 * 1024 * 1024;
  log.transports.console.level = false;
  const write = (level: 'info' | 'warn' | 'error', message: string, fields?: LogFields): void => {
    const text = formatLogLine(message, fields);
    log[level](text);
    if (options.stderr) process.stderr.write(`[${level}] ${text}\n`);
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

/** An error's code (a SQLite or Node code, else the class name) for a log line; never its message, which may hold a path or text. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return code.slice(0, 60);
  return error instanceof Error ? error.name : 'unknown';
}

/** For tests and for the in-process CLI when it must not create files. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string, fields?: LogFields) => void lines.push(`${level} ${formatLogLine(message, fields)}`);
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}
