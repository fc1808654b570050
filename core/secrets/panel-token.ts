import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { HOME_FILES } from '../config/index.js';

/** 32 random bytes, base64url: what the door compares in constant time. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The panel's bearer token, one per install: kept in STEWARD_HOME (0600) and unchanged across
 * restarts, so an open tab survives a restart; replaced only by `rotate()` (`steward token rotate`).
 * A missing or damaged file gets a fresh token.
 */
export class PanelToken {
  readonly #file: string;
  readonly #listeners = new Set<(token: string) => void>();
  #token: string | undefined;

  constructor(home: string) {
    this.#file = join(home, HOME_FILES.panelToken);
  }

  /** The token, read from the file on first use (and created when there is none). */
  current(): string {
    this.#token ??= this.#read() ?? this.#write(newToken());
    return this.#token;
  }

  /** A new token from now on; listeners (the loopback server, daemon.json) hear it at once. */
  rotate(): string {
    this.#token = this.#write(newToken());
    for (const listener of this.#listeners) listener(this.#token);
    return this.#token;
  }

  onRotate(listener: (token: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #read(): string | undefined {
    try {
      const token = readFileSync(this.#file, 'utf8').trim();
      if (!TOKEN_SHAPE.test(token)) return undefined;
      // A copy or a restore may have widened the mode: the token is a key, so only its owner reads it.
      if (process.platform !== 'win32' && (statSync(this.#file).mode & 0o077) !== 0) chmodSync(this.#file, 0o600);
      return token;
    } catch {
      return undefined;
    }
  }

  #write(token: string): string {
    writeFileAtomic.sync(this.#file, `${token}\n`, { mode: 0o600 });
    return token;
  }
}
