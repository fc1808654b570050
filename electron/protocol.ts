import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import type { CustomScheme } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../core/index.js';
import { APP_HOST, APP_SCHEME } from './ipc-channels.js';

/**
 * The panel is served from a privileged standard scheme rather than file://: the page gets a real
 * origin (for the sender check), file:// keeps no extra powers, and every response carries the same
 * strict CSP as headless mode.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  // standard: relative URLs and a real origin; secure: a secure context; corsEnabled + supportFetchAPI:
  // Vite emits `<script type="module" crossorigin>`, which Chromium fetches in CORS mode.
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: false },
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

function respond(status: number, body: ConstructorParameters<typeof Response>[0], type: string): Response {
  return new Response(body, {
    status,
    headers: {
      'content-type': type,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    },
  });
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * Maps `steward://app/<path>` to a file under `rendererDir`. A path that escapes the folder is 404; an
 * extensionless path the panel routes by itself falls back to index.html.
 */
export function createRendererHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const root = resolve(rendererDir);
  return async (request) => {
    const url = new URL(request.url);
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return respond(404, 'Not found', CONTENT_TYPES['.txt']!);
    if (request.method !== 'GET' && request.method !== 'HEAD') return respond(405, 'Method not allowed', CONTENT_TYPES['.txt']!);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return respond(400, 'Bad path', CONTENT_TYPES['.txt']!);
    }
    let file = resolve(join(root, path === '/' ? 'index.html' : path));
    const inside = relative(root, file);
    if (inside === '' || inside.startsWith('..') || inside.includes(`..${sep}`) || resolve(root, inside) !== file) {
      return respond(404, 'Not found', CONTENT_TYPES['.txt']!);
    }
    const index = join(root, 'index.html');
    if (!(await isFile(file))) {
      if (extname(file) !== '' && file !== index) return respond(404, 'Not found', CONTENT_TYPES['.txt']!);
      file = index;
      if (!(await isFile(file))) return respond(503, 'The control panel is not built: run `npm run build`.', CONTENT_TYPES['.txt']!);
    }
    // A symlink inside the folder must not lead out of it either.
    const [realFile, realRoot] = await Promise.all([realpath(file), realpath(root)]);
    if (relative(realRoot, realFile).startsWith('..')) return respond(404, 'Not found', CONTENT_TYPES['.txt']!);
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    return respond(200, request.method === 'HEAD' ? null : await readFile(file), type);
  };
}
