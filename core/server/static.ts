import { readdirSync, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import sirv from 'sirv';
import type { Logger } from '../log/index.js';

export interface PanelFiles {
  /** URL paths (`/index.html`, `/assets/app.js`) of the files that may be served. */
  paths: Set<string>;
  /** Links skipped because they dangle or lead out of the panel folder. */
  skippedLinks: number;
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(`${root}${sep}`);
}

/**
 * Walks the panel folder without ever leaving it: a link is followed only when its target lies inside
 * the folder, and a dangling one is skipped (sirv's own walk stats every entry and throws on it).
 * Dot files are never served, as sirv's `dotfiles: false` would have it.
 */
export function panelFiles(rendererDir: string): PanelFiles {
  const root = realpathSync(rendererDir);
  const found: PanelFiles = { paths: new Set(), skippedLinks: 0 };
  const seen = new Set<string>();
  const walk = (dir: string, urlPrefix: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      let path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const target = realTarget(path);
        if (target === undefined || !inside(root, target)) {
          found.skippedLinks += 1;
          continue;
        }
        path = target;
      }
      const stats = statSync(path);
      const url = `${urlPrefix}/${entry.name}`;
      if (stats.isDirectory()) walk(path, url);
      else if (stats.isFile()) found.paths.add(url);
    }
  };
  walk(root, '');
  return found;
}

function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    // A dangling link (or a loop of links) leads nowhere: nothing to serve, counted by the caller.
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
 * The built panel. Only the files found at start are served (sirv supplies the headers, ETags and
 * streaming); any other page route gets index.html, any other asset 404. A request therefore never
 * reaches a file outside the panel folder, whatever links the folder holds.
 */
export function panelHandler(rendererDir: string, options: StaticOptions): ((req: IncomingMessage, res: ServerResponse) => void) | undefined {
  const files = panelFiles(rendererDir);
  if (!files.paths.has('/index.html')) return undefined;
  if (files.skippedLinks > 0) options.logger?.warn('panel links skipped: dangling or leading out of the panel folder', { links: files.skippedLinks });
  // dev mode: sirv's production mode walks the folder itself, following every link.
  const serve = sirv(rendererDir, { dev: true, etag: true, dotfiles: false, setHeaders: options.setHeaders });
  return (req, res) => {
    const path = requestPath(req);
    const target = path !== null && files.paths.has(path) ? path : path !== null && !ASSET.test(path) ? '/index.html' : null;
    if (target === null) return options.notFound(res);
    // sirv sees only the canonical path of a file found at start, never the request's own spelling.
    req.url = encodeURI(target);
    serve(req, res, () => options.notFound(res));
  };
}
