import { describe, expect, it } from 'vitest';
import { scrubLogValue } from '../../../core/log/index.js';
import { validateSnapshot } from '../../../core/maintenance/policy.js';
import { assignsCredential, hasSecret, namesCredential, redactSecrets } from '../../../core/secrets/index.js';
import { literalStarts, REDACTED, redactWithShape, SECRET_SHAPES } from '../../../core/secrets/patterns.js';
import { CONTEXTS, inContext, leaks, secretKinds } from './corpus.js';
import { rejectFact } from '../../../core/sweeper/writer.js';

const ORDINARY = [
  'Commit 3f1c9a7b2e4d6f80 changed src/frost.ts; tokens are counted per sweep.',
  'const taskList = items.filter((item) => item.done);',
  'See https://example.com/docs/getting-started for the setup.',
  'the sk-learn model and the gh CLI are installed',
];

describe('the secret shape table', () => {
  const kinds = secretKinds();

  it('every shape catches a secret of at least one kind of the corpus by itself, in every context', () => {
    for (const shape of SECRET_SHAPES) {
      const caught = kinds.filter((k) => CONTEXTS.every((c) => k.secrets.some((s) => !leaks(redactWithShape(inContext(k.snippet, c), shape.id), s))));
      expect(caught.length, shape.id).toBeGreaterThan(0);
    }
  });

  it('a shape searches only a text holding a word it needs, and each word is needed: the same redaction as searching every text', () => {
    const texts = [...ORDINARY, ...kinds.flatMap((k) => CONTEXTS.map((c) => inContext(k.snippet, c)))];
    for (const shape of SECRET_SHAPES) {
      for (const text of texts) expect(redactWithShape(text, shape.id), `${shape.id} in ${text}`).toBe(redactWithShape(text, shape.id, { searchAll: true }));
    }
    // Only shapes with no word of their own search every text: the rest is what keeps a search's redaction cheap.
    expect(SECRET_SHAPES.filter((s) => s.needs === undefined).map((s) => s.id)).toEqual(['asana-pat']);
  });

  it('a vendor prefix is read as what every match starts with only where it is: never past an optional group, an alternative, or a class', () => {
    expect(literalStarts(String.raw`sk-ant-(?:api\d\d)?-?[A-Za-z0-9_-]{16,}`)).toEqual(['sk-ant-']);
    expect(literalStarts(String.raw`ya29\.[A-Za-z0-9_-]{20,}`)).toEqual(['ya29.']);
    expect(literalStarts(String.raw`(?:hf_|api_org_)[A-Za-z0-9]{30,}`)).toEqual(['hf_', 'api_org_']);
    expect(literalStarts(String.raw`(?:ab[)|]c|de)x`)).toEqual(['ab', 'de']);
    expect(literalStarts(String.raw`(?:hf_|xy_)?abc`)).toBeNull();
    expect(literalStarts(String.raw`abc|xyz`)).toBeNull();
    expect(literalStarts(String.raw`gh?p_[A-Za-z0-9]{30,}`)).toBeNull();
    expect(literalStarts(String.raw`[a-f0-9]{32}-us\d{1,2}`)).toBeNull();
  });

  for (const kind of kinds) {
    it(`${kind.kind}: redacted, found, and scrubbed from log lines`, () => {
      expect(kind.secrets.some((s) => leaks(redactSecrets(kind.snippet), s))).toBe(false);
      expect(hasSecret(kind.snippet)).toBe(true);
      expect(kind.secrets.some((s) => leaks(scrubLogValue(kind.snippet), s))).toBe(false);
    });
  }

  it('the shapes a hostile run got through: a Stripe live key, a bare AWS secret by its key id, Azure AccountKey, short passwords, sshpass, mysql -p, AGE keys, Doppler, Twilio, prose', () => {
    const cases: Array<[string, string]> = [
      [`notes mention sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`, '4eC39HqLyjWDarjtT1zdp7dc'],
      ['AKIAIOSFODNN7EXAMPLE\nwJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG'],
      ['AccountName=a;AccountKey=Zm9vYmFy+YmF6cXV4==;EndpointSuffix=core.windows.net', 'Zm9vYmFy'],
      ['password=abc', 'abc'],
      ['passwd: x7', 'x7'],
      ["sshpass -p 'hunter2' ssh pi@raspberrypi", 'hunter2'],
      ['mysql -uroot -phunter2 shop', 'hunter2'],
      [`AGE-SECRET-KEY-1${'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'.repeat(2).slice(0, 58)}`, 'QPZRY9X8GF2TVDW0S3JN54KHCE'],
      [`DOPPLER_TOKEN is dp.st.${'a1B2c3D4e5'.repeat(4)}`, 'a1B2c3D4e5'],
      [`twilio SK${'0123456789abcdef'.repeat(2)}`, '0123456789abcdef'],
      ['by the way my password is Tr0ub4dor&3', 'Tr0ub4dor&3'],
    ];
    for (const [text, secret] of cases) expect(redactSecrets(text), text).not.toContain(secret);
  });

  it('hides the whole of a password or credential named in prose, and only its value (a tester\'s findings)', () => {
    const cases: Array<[string, string]> = [
      ['my password is P@ss!word#1 ok', `my password is ${REDACTED} ok`],
      ['password is hunter2Secret!', `password is ${REDACTED}`],
      ['the password was Tr0ub4dor&3.', `the password was ${REDACTED}.`],
      ['Her passwd is x7;y8?z9, she said', `Her passwd is ${REDACTED}, she said`],
      ['API key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0', `API key: ${REDACTED}`],
      ['token is abcdef0123456789abcdef0123456789abcdef01', `token is ${REDACTED}`],
      ['the deploy token was Zq7Lm2Xw9KZq7Lm2Xw9K, rotated since', `the deploy token was ${REDACTED}, rotated since`],
      ['secret = 0a1b2c3d4e5f60718293a4b5c6d7e8f9', `secret = ${REDACTED}`],
      ['passwd hunter2Secret!', `passwd ${REDACTED}`],
      ['the passphrase is "correct horse battery staple"', `the passphrase is "${REDACTED}"`],
      ['the API key is “sk live in the vault 42”.', `the API key is “${REDACTED}”.`],
      ["my password is 'it is open sesame'", `my password is '${REDACTED}'`],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
  });

  it('hides a prose password with brackets in it, one after a refused value, and one that starts with a stop word (an attacker\'s findings)', () => {
    const cases: Array<[string, string]> = [
      ['password is Q9!z)K2#m', `password is ${REDACTED}`],
      ['password is S3cret!#$%^&*()', `password is ${REDACTED}`],
      ['password is password is hunter2x', `password is password is ${REDACTED}`],
      ['pin is pin is 4821', `pin is ${REDACTED} is ${REDACTED}`],
      ['password is a!Xq9zP2', `password is ${REDACTED}`],
      ['the password is my#Dog2024', `the password is ${REDACTED}`],
      ['password is wrong!', 'password is wrong!'],
      ['the password is getPassword()', 'the password is getPassword()'],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
  });

  it('the prose shapes take no more than a moment over long runs of spaces after a credential\'s name', () => {
    // Unbounded `\s+ is \s*:?\s+` backtracked: 20,000 spaces after "token is" took 1.4 s. (Older
    // shapes with an assignment's `\s*` still do: README, "Limits remain".)
    for (const id of ['password-in-prose', 'quoted-credential-in-prose', 'credential-in-prose', 'password-named-bare']) {
      for (const name of ['password is', 'token is', 'the passphrase is', 'API key']) {
        const began = performance.now();
        redactWithShape(`${name}${' '.repeat(20_000)}"x" ${'\t'.repeat(5_000)}: y`, id);
        expect(performance.now() - began, `${id}: ${name}`).toBeLessThan(100);
      }
    }
  });

  it('leaves prose about a credential alone when no value follows', () => {
    const prose = [
      'the token is valid',
      'password is wrong',
      'API key: see the docs',
      'The API key is stored in the keychain until the session ends.',
      'the token is expired; run login again',
      'secret: true',
      'Set the passphrase = required in the dialog.',
      'The password hunter prowled the forum.',
      'token: string;',
      'The secret word in the game is "lighthouse".',
      'Import the key 3AA5C34371567BD2 from the keyserver.',
      'the session key is derived per connection',
      'the passwd file lists local users',
      'the token is "valid" only for an hour',
      'no session token is `zsnone`; a missing token is `waiting`.',
      'the password is "required" on this form',
    ];
    for (const text of prose) expect(redactSecrets(text), text).toBe(text);
  });

  it('redacts before cutting: a log value cut at 500 characters never keeps the head of a secret', () => {
    const secret = `github_pat_11ABCDEFG0${'y'.repeat(70)}`;
    const value = `${'x'.repeat(480)} ${secret}`;
    expect(scrubLogValue(value)).not.toMatch(/github_pat|yyyy/);
  });

  it('leaves ordinary code and prose alone', () => {
    for (const text of ORDINARY) {
      expect(redactSecrets(text)).toBe(text);
      expect(hasSecret(text)).toBe(false);
    }
  });

  it('serves the writer, the snapshot check and status ids from the same words', () => {
    expect(namesCredential('The API key lives in the keychain')).toBe(true);
    expect(namesCredential(`the value was ${REDACTED}`)).toBe(true);
    expect(rejectFact('The deploy token is rotated monthly.')).toBe('secret');
    expect(assignsCredential('cookie=abc')).toBe(true);
    expect(() => validateSnapshot({ profile: 'default', embedding: { provider: 'none', model: `glpat-${'z'.repeat(20)}` }, chunk: { max_chars: 2_000, overlap: 200 } })).toThrow(/credential/);
  });
});
