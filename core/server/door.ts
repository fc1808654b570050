import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type DoorVerdict = { ok: true } | { ok: false; status: 403 | 401; reason: string };

/** The hosts a loopback panel may be addressed as; anything else is DNS rebinding or a mistake. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((host) => `http://${host}`);
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The header the panel's own requests carry beside the cookie. A page of another origin cannot add
 * it without a CORS preflight, which the door refuses, and a plain link, image or form cannot add it
 * at all: the cookie alone, sent by the browser on its own, never opens the door.
 */
export const PANEL_HEADER = 'x-steward-panel';

/**
 * The routes that take the cookie, one cookie each, so the browser sends it nowhere else (cookies
 * ignore the port: a cookie on `/` would reach every other loopback server this browser visits).
 */
export const COOKIE_PATHS = ['/rpc', '/events', '/remember'] as const;

/** Long enough for a bookmark kept for weeks; each visit of the panel renews it. */
const COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;

/** Named by the port, since cookies ignore it: two owners on one machine keep a cookie each. */
export function panelCookieName(port: number): string {
  return `steward_panel_${port}`;
}

function sameToken(given: string, token: string): boolean {
  if (!TOKEN_SHAPE.test(given)) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/.exec(header ?? '');
  return match?.[1] !== undefined && sameToken(match[1], token);
}

/** Every value the Cookie header holds under `name` (a stale one may sit beside the current one). */
function cookieValues(header: string | undefined, name: string): string[] {
  return (header ?? '')
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${name}=`))
    .map((pair) => pair.slice(name.length + 1));
}

function cookieMatches(req: IncomingMessage, port: number, token: string): boolean {
  if (req.headers[PANEL_HEADER] !== '1') return false;
  return cookieValues(req.headers.cookie, panelCookieName(port)).some((value) => sameToken(value, token));
}

/**
 * The cookies that let this browser back in without the link (a bookmark, a new tab): HttpOnly so no
 * script reads the token, SameSite=Strict so no other site's page sends them, one per data route.
 * No `Secure`: the panel is plain http on loopback, and a Secure cookie would never be sent.
 */
export function panelCookies(port: number, token: string): string[] {
  return COOKIE_PATHS.map((path) => `${panelCookieName(port)}=${token}; Path=${path}; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Strict`);
}

/**
 * The door, in the order DESIGN.md fixes: Host first (against DNS rebinding), then a present foreign
 * Origin (against cross-site requests from a browser), then, for data routes, the token: as a bearer
 * header (the CLI, the page that holds the link's token) or as the panel's cookie with its header.
 */
export function checkDoor(req: IncomingMessage, port: number, token: string, needsToken: boolean): DoorVerdict {
  const host = req.headers.host;
  if (!host || !allowedHosts(port).includes(host)) return { ok: false, status: 403, reason: 'Forbidden host' };
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins(port).includes(origin)) return { ok: false, status: 403, reason: 'Forbidden origin' };
  if (needsToken && !tokenMatches(req.headers.authorization, token) && !cookieMatches(req, port, token)) {
    return { ok: false, status: 401, reason: 'Missing or wrong token' };
  }
  return { ok: true };
}
