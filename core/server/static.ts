import { realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import sirv from 'sirv';
import type { Logger } from '../log/index.js';

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(`${root}${sep}`);
}

/**
 * The canonical URL path of the file a request path names in the panel folder as it is on disk now, or
 * undefined when it names none. Read at each request, not at start, so a rebuild while the owner runs
 * (new `assets/index-<hash>.js`) is served on the next reload. It never leaves the folder: `.` and `..`
 * and dot files are no names here (sirv's `dotfiles: false`), and a link is followed only when its
 * target lies inside the folder (a dangling one names nothing); `onLinkOut` hears of one that leads out.
 */
export function panelFile(root: string, path: string, onLinkOut?: () => void): string | undefined {
  const names = path.split('/').filter((name) => name !== '');
  // A backslash is a separator on Windows and NUL ends a name: neither is part of a panel file's name.
  if (names.length === 0 || names.some((name) => name.startsWith('.') || /[\\\0]/.test(name))) return undefined;
  const target = realTarget(join(root, ...names));
  if (target === undefined) return undefined;
  if (!inside(root, target)) {
    onLinkOut?.();
    return undefined;
  }
  if (!isFile(target)) return undefined;
  return `/${names.join('/')}`;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    // Gone between the two reads (a rebuild emptying the folder): nothing to serve.
    return false;
  }
}

function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    // A missing file, a dangling link or a loop of links leads nowhere: nothing to serve.
    return undefined;
  }
}

/** A request path as the panel's URL paths are written: decoded, or null when it does not decode. */
function requestPath(req: IncomingMessage): string | null {
  try {
    return decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
  } catch {
    return null;
  }
}

/** What sirv's `single` mode would treat as an asset (a name with an extension) rather than a page route. */
const ASSET = /\/[^/]+\.\w+$/;

export interface StaticOptions {
  setHeaders: (res: ServerResponse) => void;
  notFound: (res: ServerResponse) => void;
  logger?: Logger | undefined;
}

/**
 * The built panel. A request is answered with the file it names as the folder holds it now (sirv
 * supplies the headers, ETags and streaming, and in dev mode reads the disk at each request); any
 * other page route gets index.html, any other asset 404. A request therefore never reaches a file
 * outside the panel folder, whatever links the folder holds. Undefined when the folder holds no
 * index.html at start (the panel is not built).
 */
export function panelHandler(rendererDir: string, options: StaticOptions): ((req: IncomingMessage, res: ServerResponse) => void) | undefined {
  const root = realpathSync(rendererDir);
  if (panelFile(root, '/index.html') === undefined) return undefined;
  // dev mode: sirv's production mode walks the folder once, at start, following every link.
  const serve = sirv(root, { dev: true, etag: true, dotfiles: false, setHeaders: options.setHeaders });
  let warned = false;
  const onLinkOut = () => {
    // Once per run: a request may name such a link as often as it likes, the log says it once.
    if (!warned) options.logger?.warn('a panel link leading out of the panel folder was not followed');
    warned = true;
  };
  return (req, res) => {
    const path = requestPath(req);
    const target = path === null ? undefined : (panelFile(root, path, onLinkOut) ?? (ASSET.test(path) ? undefined : panelFile(root, '/index.html')));
    if (target === undefined) return options.notFound(res);
    // sirv sees only the canonical path of a file found inside the folder, never the request's own spelling.
    req.url = encodeURI(target);
    serve(req, res, () => options.notFound(res));
  };
}
