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

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer ([A-Za-z0-9_-]{16,128})$/.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The door, in the order DESIGN.md fixes: Host first (against DNS rebinding), then a present foreign
 * Origin (against cross-site requests from a browser), then the bearer token for data routes.
 * Only a bearer header: never a cookie, which ignores the port and so would carry the token to every
 * other server this browser visits on 127.0.0.1 (the page keeps the token in its origin's storage).
 */
export function checkDoor(req: IncomingMessage, port: number, token: string, needsToken: boolean): DoorVerdict {
  const host = req.headers.host;
  if (!host || !allowedHosts(port).includes(host)) return { ok: false, status: 403, reason: 'Forbidden host' };
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins(port).includes(origin)) return { ok: false, status: 403, reason: 'Forbidden origin' };
  if (needsToken && !tokenMatches(req.headers.authorization, token)) return { ok: false, status: 401, reason: 'Missing or wrong token' };
  return { ok: true };
}
