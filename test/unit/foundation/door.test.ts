import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkDoor } from '../../../core/server/door.js';

const TOKEN = 'A'.repeat(43);
const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('the door', () => {
  it('admits the panel origin with the token', () => {
    expect(checkDoor(req({ host: '127.0.0.1:5000', origin: 'http://127.0.0.1:5000', authorization: `Bearer ${TOKEN}` }), 5000, TOKEN, true)).toEqual({ ok: true });
    expect(checkDoor(req({ host: 'localhost:5000', authorization: `Bearer ${TOKEN}` }), 5000, TOKEN, true)).toEqual({ ok: true });
  });

  it('checks Host first: a foreign Host is 403 even with the right token', () => {
    expect(checkDoor(req({ host: 'evil.example:5000', authorization: `Bearer ${TOKEN}` }), 5000, TOKEN, true)).toMatchObject({ status: 403 });
    expect(checkDoor(req({ host: '127.0.0.1:5001', authorization: `Bearer ${TOKEN}` }), 5000, TOKEN, true)).toMatchObject({ status: 403 });
    expect(checkDoor(req({}), 5000, TOKEN, true)).toMatchObject({ status: 403 });
  });

  it('then a present foreign Origin: 403 before the token is looked at', () => {
    expect(checkDoor(req({ host: '127.0.0.1:5000', origin: 'http://evil.example' }), 5000, TOKEN, true)).toMatchObject({ status: 403 });
    expect(checkDoor(req({ host: '127.0.0.1:5000', origin: 'null', authorization: `Bearer ${TOKEN}` }), 5000, TOKEN, true)).toMatchObject({ status: 403 });
  });

  it('then the bearer token on data routes: 401 when missing or wrong', () => {
    expect(checkDoor(req({ host: '127.0.0.1:5000' }), 5000, TOKEN, true)).toMatchObject({ status: 401 });
    expect(checkDoor(req({ host: '127.0.0.1:5000', authorization: `Bearer ${'B'.repeat(43)}` }), 5000, TOKEN, true)).toMatchObject({ status: 401 });
    expect(checkDoor(req({ host: '127.0.0.1:5000', authorization: TOKEN }), 5000, TOKEN, true)).toMatchObject({ status: 401 });
  });

  it('lets static files through without a token, still behind Host and Origin', () => {
    expect(checkDoor(req({ host: '127.0.0.1:5000' }), 5000, TOKEN, false)).toEqual({ ok: true });
    expect(checkDoor(req({ host: 'evil.example' }), 5000, TOKEN, false)).toMatchObject({ status: 403 });
  });
});
