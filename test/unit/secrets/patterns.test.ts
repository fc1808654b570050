import { describe, expect, it } from 'vitest';
import { scrubLogValue } from '../../../core/log/index.js';
import { validateSnapshot } from '../../../core/maintenance/policy.js';
import { assignsCredential, hasSecret, namesCredential, redactSecrets } from '../../../core/secrets/index.js';
import { literalStarts, REDACTED, redactWithShape, SECRET_SHAPES } from '../../../core/secrets/patterns.js';
import { CONTEXTS, inContext, leaks, secretKinds } from './corpus.js';
import { rejectFact } from '../../../core/sweeper/writer.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

const ORDINARY = [
  'Commit 3f1c9a7b2e4d6f80 changed src/frost.ts; tokens are counted per sweep.',
  'const taskList = items.filter((item) => item.done);',
  'See https://example.com/docs/getting-started for the setup.',
  'the sk-learn model and the gh CLI are installed',
];

/** A text of `chars` characters, near enough: `head`, `unit` repeated, then `tail`. */
type Sized = (chars: number) => string;

function run(head: string, unit: string, tail = ''): Sized {
  return (chars) => `${head}${unit.repeat(Math.ceil(chars / unit.length))}${tail}`;
}

/**
 * Per shape that reads whitespace, the labels before its value (`·` marks where a run of whitespace may
 * stand), and texts that repeat a label's parts (a `-p` flag after one `mysql`).
 */
const WORST_LABELS: Record<string, (string | Sized)[]> = {
  'pem-private-key': ['-----BEGIN·RSA PRIVATE KEY-----·'],
  'pem-block': ['-----BEGIN·CERTIFICATE-----·'],
  'putty-private-key': ['Private-Lines:·1·\n'],
  'aws-secret-near-key-id': ['AKIAIOSFODNN7EXAMPLE·'],
  'url-credentials': ['https://·ana:'],
  'azure-connection-secret': ['AccountKey·=·'],
  'authorization-header': ['Authorization·:·Bearer·', 'Proxy-Authorization·=·"basic·'],
  'api-key-header': ['X-Api-Key·:·', 'x-auth-token"·:·"'],
  'bearer-token': ['Bearer·'],
  'curl-user': ['curl·-u·ana:', run('curl', ' -u a:b')],
  sshpass: ['sshpass·-p·'],
  'mysql-password-flag': ['mysql -u root·-p', run('mysql', ' -p'), run('mysql', ' -p"')],
  'registry-login-password': ['docker·login·-p·', run('docker login', ' -p'), run('docker login', ' -p"')],
  'redis-cli-password': ['redis-cli·-a·', run('redis-cli', ' -a')],
  'sqlcmd-password': ['sqlcmd·-P·', run('sqlcmd', ' -P')],
  'ldap-bind-password': ['ldapsearch·-w·', run('ldapsearch', ' -w')],
  'ldappasswd-password': ['ldappasswd·-s·', run('ldappasswd', ' -a')],
  'smb-user-password': ['smbclient·-U·ana%', run('smbclient', ' -U a%')],
  'htpasswd-batch-password': ['htpasswd·-b·f·ana·', run('htpasswd -b', ' a'), run('htpasswd', ' -b')],
  'stdin-password': ["echo·'x'·|·sudo·-S", run('echo x |', ' sudo', ' -S'), run('', 'echo ', 'x | sudo -S')],
  'here-string-password': ['sudo·-S·x·<<<·', run('sudo -S', ' <<<')],
  'zip-password': ['zip·-P·', run('zip', ' -P')],
  '7z-password': ['7z·a·-p', run('7z', ' -p')],
  'keytool-password': ['keytool·-storepass·', run('keytool', ' -storepass')],
  'openssl-k-password': ['openssl·enc·-k·', run('openssl', ' -k')],
  'openssl-pass-password': ['openssl·-passout·pass:', run('openssl', ' -pass pass:')],
  'mongo-password': ['mongosh·-p·', run('mongosh', ' -p')],
  'psexec-password': ['psexec·-p·', run('psexec', ' -p')],
  'platform-login-password': ['oc·login·-p·', run('oc login', ' -p')],
  'smb-tool-password': ['smbmap·-p·', run('smbmap', ' -p')],
  'rdp-password': ['xfreerdp·/p:', run('xfreerdp', ' /p:')],
  'ssh-keygen-passphrase': ['ssh-keygen·-N·', run('ssh-keygen', ' -N')],
  'setx-password': ['setx·/M·DB_PASSWORD·', run('setx', ' a')],
  'dotnet-app-setting': ['<add·key·=·"password"·value·=·"', run('', '<add key="pwd" value="')],
  'lftp-user-password': ['lftp·-u·ana,', run('lftp', ' -u a,')],
  'net-use-password': ['net·use·\\\\s\\x·', 'net·use·x·/user:ana·', 'net·user·ana·', run('net use', ' /user:a')],
  'powershell-secure-string': ['ConvertTo-SecureString·-String·', run('ConvertTo-SecureString', ' -String')],
  'rabbitmqctl-password': ['rabbitmqctl·add_user·ana·', run('rabbitmqctl add_user', ' a')],
  'redis-auth-command': ['redis-cli·AUTH·', 'h:6379>·AUTH·default·', run('redis-cli', ' AUTH')],
  'expect-send-password': ['expect·password\n·send·"', run('expect password\n', ' send "')],
  'pgpass-line': ['\n·h:5432:d:u:', run('', 'h:5432:d:u:')],
  'password-flag': ['·--password·', '·--token='],
  'netrc-password': ['login·ana·password·'],
  'xml-secret-element': ['<password>·'],
  'yaml-block-secret': ['password·:·|·\n·', '- password:·>-·#·c\n\n·', run('password: |', '\n  x')],
  'password-assignment': ['password·=·', 'DB_PASSWORD·:·"', 'password·->·', 'Passwort·:·„'],
  'pass-or-pin-assignment': ['pass·:·', 'pin·=·"'],
  'sql-password': ["PASSWORD·'", "IDENTIFIED·BY·'", 'PASSWORD·"', 'ALTER·USER·app·WITH·PASSWORD·"', "IDENTIFIED·WITH·caching_sha2_password·BY·'", 'PASSWORD·(·"', "WITH·PASSWORD·E'"],
  'quoted-credential-in-prose': ['the passphrase·is·"', 'the token·is·“', 'the passphrase·is·still·"', 'the passphrase·is·now·also·"'],
  'password-in-prose': ['password·is·', 'password·for·the·db·is·', 'password·is·now·', 'Passwort·ist·immer·noch·', 'Passwort·für·die·DB·lautet·:·', 'password·is·now·also·', 'Passwort·lautet·wie·folgt·:·'],
  'password-named-bare': ['passwd·'],
  'markdown-password': ['|·Password·|·', '|·**DB_PASSWORD**·|·`'],
  'fenced-password': ['**Password:**·\n```·\n·', '**Password:**\n```\nab·'],
  'credential-in-prose': ['API key·:·', 'the token·is·', 'token=', 'API key·-·', 'API key·'],
  'secret-assignment': ['API_TOKEN·=·', 'secret·:·'],
};

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

  it('hides a password in curly quotes around an apostrophe, in guillemets, quoted over two lines or with a quote inside, an id:secret pair, and dotted or $ passwords (a tester\'s findings)', () => {
    const cases: Array<[string, string]> = [
      ['the password is “it’sS3cret!”', `the password is “${REDACTED}”`],
      ["my password is 'it's S3cret'", `my password is '${REDACTED}'`],
      ['mot de passe : «Tr0ub4dor&3»', `mot de passe : «${REDACTED}»`],
      ['the password is «Tr0ub4dor&3»', `the password is «${REDACTED}»`],
      // A quoted value goes on over a line break, within its 99 characters: the whole run is hidden.
      ['the passphrase is "correct horse\nbattery staple"', `the passphrase is "${REDACTED}"`],
      [String.raw`{"note":"the passphrase is \"correct horse\nbattery staple\""}`, String.raw`{"note":"the passphrase is \"${REDACTED}\""}`],
      ['password is ab"c9!Xz', `password is ${REDACTED}`],
      ['{"note":"password is ab\\"c9!Xz","at":"10:00"}', `{"note":"password is ${REDACTED}","at":"10:00"}`],
      ['API key: AKIA1234:9f8e7d6c5b4a39281706f5e4d3c2b1a0', `API key: ${REDACTED}`],
      ['password is p.a$$w0rd.2024', `password is ${REDACTED}`],
      ['password: $ecretP4ss.word', `password: ${REDACTED}`],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
  });

  it('hides what an attacker got through last stop: a key after a dash or a space, an arrow, `pass:`, a PIN, a password named for something, German quotes, SQL doubled quotes, a quoted value over a line break', () => {
    const cases: Array<[string, string]> = [
      ['API key - 3f9a1c0e5b7d2a4f6e8c1b3d5a7f9e0c', `API key - ${REDACTED}`],
      ['API key 3f9a1c0e5b7d2a4f6e8c1b3d5a7f9e0c', `API key ${REDACTED}`],
      ['password -> hunter2Xy!', `password -> ${REDACTED}`],
      ['pass: hunter2Xy!', `pass: ${REDACTED}`],
      ['pin: 4821', `pin: ${REDACTED}`],
      ['PIN="004821"', `PIN="${REDACTED}"`],
      ['The password for the db is Tr0ub4dor&3', `The password for the db is ${REDACTED}`],
      ['the password to root@db-01 was Tr0ub4dor&3.', `the password to root@db-01 was ${REDACTED}.`],
      ['Passwort: „geheim123!“', `Passwort: „${REDACTED}“`],
      ['Kennwort: „geheim 123!“', `Kennwort: „${REDACTED}“`],
      ["ALTER USER app WITH PASSWORD 'it''s-s3cret';", `ALTER USER app WITH PASSWORD '${REDACTED}';`],
      ["CREATE USER 'app'@'%' IDENTIFIED BY 'it''s-s3cret';", `CREATE USER 'app'@'%' IDENTIFIED BY '${REDACTED}';`],
      ['[db]\npassword = "abc\n def"\nuser = "ana"', `[db]\npassword = "${REDACTED}"\nuser = "ana"`],
      // A working directory is left (below), a MySQL password that starts with a slash is not.
      ['MYSQL_PWD=/s3cr3t!', `MYSQL_PWD=${REDACTED}`],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
  });

  it('leaves alone what only looks like a credential: a working directory, a word about the password, a Kubernetes secret\'s name, a pin number, pass counts', () => {
    const prose = [
      'pwd: /home/ana/src',
      'PWD=~/src/steward',
      'pwd is C:\\Users\\ana\\src',
      'the password is case-sensitive',
      'the password is read-only here',
      'secret: my-app-secret-name-production',
      'pin: 13',
      'pass: 12',
      'pass: ok',
      'pass: true',
      'hash :: Password -> IO Digest',
      'The password for the db is required',
      "the field is PASSWORD 'required' in the form",
      // An unclosed quote does not swallow the lines after it.
      `password = "${'x'.repeat(60)}\n${'y'.repeat(60)}\nz"`,
    ];
    for (const text of prose) expect(redactSecrets(text), text).toBe(text);
  });

  it('hides what a reviewer listed: a made one-folder "path" after pwd, a German "ist", a SQL password in double quotes or with an escaped quote', () => {
    const cases: Array<[string, string]> = [
      ['pwd: ~/hunter2Xy', `pwd: ${REDACTED}`],
      ['OLDPWD=~/Tr0ub4dor&3', `OLDPWD=${REDACTED}`],
      ['pwd is ~/hunter2Xy', `pwd is ${REDACTED}`],
      ['Das Passwort ist Geheim123!', `Das Passwort ist ${REDACTED}`],
      ['das Kennwort ist s3cr3t-Wert.', `das Kennwort ist ${REDACTED}.`],
      ['ALTER USER app PASSWORD "s3cret-Value";', `ALTER USER app PASSWORD "${REDACTED}";`],
      ['CREATE USER app IDENTIFIED BY "s3cret-Value";', `CREATE USER app IDENTIFIED BY "${REDACTED}";`],
      ["CREATE USER 'app'@'%' IDENTIFIED BY 'it\\'s-s3cret';", `CREATE USER 'app'@'%' IDENTIFIED BY '${REDACTED}';`],
      ['ALTER USER app PASSWORD "say \\"hi\\" 9X";', `ALTER USER app PASSWORD "${REDACTED}";`],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
    const ordinary = [
      'pwd: ~/projects',
      'pwd: ~/src/app',
      'PWD=~/work/',
      'cd ~/work',
      'pwd: ~',
      'Das Passwort ist case-sensitive',
      'Das Passwort ist abgelaufen.',
      'Das Passwort ist falsch!',
      'das Kennwort ist geheim',
      'Das Passwort ist zu kurz',
      'the field is PASSWORD "required" in the form',
    ];
    for (const text of ordinary) expect(redactSecrets(text), text).toBe(text);
  });

  it('hides what a reviewer got past the German and SQL rules: an adverb before the value, "lautet", "für die DB", a made folder with a slash after it; and leaves German words about a password and UI wording in double quotes', () => {
    const adverbs = ['jetzt', 'noch', 'schon', 'auch', 'nur', 'immer', 'immer noch', 'hier', 'nun', 'weiterhin', 'übrigens'];
    const cases: Array<[string, string]> = [
      ...adverbs.map((a): [string, string] => [`Das Passwort ist ${a} Xk9mQ2aZ!`, `Das Passwort ist ${a} ${REDACTED}`]),
      ['the password is now Xk9mQ2aZ!', `the password is now ${REDACTED}`],
      ['the password is still Xk9mQ2aZ!', `the password is still ${REDACTED}`],
      ['my password is also Xk9mQ2aZ!', `my password is also ${REDACTED}`],
      ['the passphrase is now "correct horse battery staple"', `the passphrase is now "${REDACTED}"`],
      ['Das Passwort lautet: Xk9mQ2aZ!', `Das Passwort lautet: ${REDACTED}`],
      ['Das Passwort lautet Xk9mQ2aZ!', `Das Passwort lautet ${REDACTED}`],
      ['Das Passwort für die DB ist Xk9mQ2aZ!', `Das Passwort für die DB ist ${REDACTED}`],
      ['Das Kennwort für den Server lautet Xk9mQ2aZ!', `Das Kennwort für den Server lautet ${REDACTED}`],
      ['pwd: ~/Xk9mQ2aZ/', `pwd: ${REDACTED}`],
      ['pwd is ~/Xk9mQ2aZ/', `pwd is ${REDACTED}`],
      ['ALTER USER app PASSWORD "s3cret-Value";', `ALTER USER app PASSWORD "${REDACTED}";`],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
    const ordinary = [
      'Das Passwort ist jetzt abgelaufen.',
      'Das Passwort ist immer noch falsch',
      'the password is now expired',
      'the password is still required',
      'Das Passwort lautet anders',
      'Das Passwort für die DB ist abgelaufen',
      ...['gut', 'neu', 'alt', 'weg', 'da', 'okay', 'egal', 'wichtig', 'vorhanden', 'eingegeben', 'deaktiviert', 'dasselbe'].map((w) => `Das Passwort ist ${w}`),
      'Das Passwort ist sehr lang',
      'Das Passwort ist leider abgelaufen',
      'Das Passwort ist ebenfalls gesetzt',
      'Das Passwort ist wahrscheinlich falsch',
      'Das Passwort ist bereits vergeben',
      'Das Passwort ist Teil der Konfiguration',
      'Reset password "failed"',
      'Enter password "again" to confirm',
      'the password "confirmation" field',
      'the field password "must match"',
      'PWD=~/work/',
      "the field is PASSWORD 'required' in the form",
    ];
    for (const text of ordinary) expect(redactSecrets(text), text).toBe(text);
    // Single quotes stay SQL's: any value but a word about a password is one.
    expect(redactSecrets("ALTER USER app PASSWORD 'failed';")).toBe(`ALTER USER app PASSWORD '${REDACTED}';`);
  });

  it('hides what a reviewer found after the last change: SQL passwords in double quotes, two adverbs or "wie folgt" or a colon after the adverb; leaves plain UI words, describing words, numbers and folder names with a separator', () => {
    const values = ['hunter2', 'password123', 'CorrectHorseBattery', 'tr0ub4dor', 's3cretpass'];
    const cases: Array<[string, string]> = [
      ['ALTER USER bob IDENTIFIED BY "hunter2";', `ALTER USER bob IDENTIFIED BY "${REDACTED}";`],
      ["CREATE USER 'app'@'%' IDENTIFIED BY \"password123\";", `CREATE USER 'app'@'%' IDENTIFIED BY "${REDACTED}";`],
      ['CREATE USER app IDENTIFIED BY "CorrectHorseBattery"', `CREATE USER app IDENTIFIED BY "${REDACTED}"`],
      ['ALTER ROLE app WITH PASSWORD "tr0ub4dor";', `ALTER ROLE app WITH PASSWORD "${REDACTED}";`],
      ['CREATE ROLE app LOGIN PASSWORD "s3cretpass";', `CREATE ROLE app LOGIN PASSWORD "${REDACTED}";`],
      // IDENTIFIED BY is never a UI's: even a plain word is a password.
      ['x IDENTIFIED BY "letmein"', `x IDENTIFIED BY "${REDACTED}"`],
      // Without SQL before it, a value that is not plain words is one.
      ...values.map((v): [string, string] => [`set password "${v}" here`, `set password "${REDACTED}" here`]),
      ['Das Passwort lautet wie folgt: hunter2', `Das Passwort lautet wie folgt: ${REDACTED}`],
      ['the password is now: hunter2', `the password is now: ${REDACTED}`],
      ['das Passwort ist nun: hunter2', `das Passwort ist nun: ${REDACTED}`],
      ['the password is now also hunter2', `the password is now also ${REDACTED}`],
      ['das Passwort ist jetzt auch hunter2', `das Passwort ist jetzt auch ${REDACTED}`],
      ['the passphrase is now also "correct horse battery staple"', `the passphrase is now also "${REDACTED}"`],
      ['pwd: ~/hunter2Xy', `pwd: ${REDACTED}`],
      ['pwd: ~/Xk9mQ2aZ/', `pwd: ${REDACTED}`],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
    const ordinary = [
      'Reset password "failed"',
      'Reset password "Failed"',
      'Enter password "again" to confirm',
      'the password "confirmation" field',
      'the field password "must match"',
      'the field password "must-match now"',
      'The pin is now enabled',
      'The pin is disabled',
      'Der PIN ist nur vier Ziffern lang',
      'the pin is twelve digits',
      'Das Passwort ist schon lange abgelaufen',
      'Das Passwort ist jetzt sicherer',
      'Das Passwort ist jetzt länger',
      'Das Passwort ist kürzer',
      'Das Passwort ist wie folgt',
      'pwd: ~/app-v2/',
      'OLDPWD=~/my-app2/',
      'pwd is ~/my_App2',
      'PWD=~/site.v2',
    ];
    for (const text of ordinary) expect(redactSecrets(text), text).toBe(text);
  });

  it('hides what an attacker got past the SQL and adverb rules: MySQL\'s plugin form, PASSWORD(), Postgres E\'…\', "only" and "just"; leaves UI words in double quotes after SQL\'s words, and lengths and describing words', () => {
    const cases: Array<[string, string]> = [
      ...['mysql_native_password', 'caching_sha2_password'].flatMap((plugin): Array<[string, string]> => [
        [`ALTER USER bob IDENTIFIED WITH ${plugin} BY 'hunter2';`, `ALTER USER bob IDENTIFIED WITH ${plugin} BY '${REDACTED}';`],
        [`ALTER USER bob IDENTIFIED WITH ${plugin} BY "hunter2";`, `ALTER USER bob IDENTIFIED WITH ${plugin} BY "${REDACTED}";`],
      ]),
      ["SET PASSWORD = PASSWORD('hunter2');", `SET PASSWORD = PASSWORD('${REDACTED}');`],
      ['SET PASSWORD FOR \'bob\'@\'%\' = PASSWORD("hunter2");', `SET PASSWORD FOR 'bob'@'%' = PASSWORD("${REDACTED}");`],
      ["ALTER ROLE app WITH PASSWORD E'hunter2';", `ALTER ROLE app WITH PASSWORD E'${REDACTED}';`],
      ['ALTER ROLE app WITH PASSWORD "tr0ub4dor"', `ALTER ROLE app WITH PASSWORD "${REDACTED}"`],
      ['ALTER USER app PASSWORD "s3cretpass"', `ALTER USER app PASSWORD "${REDACTED}"`],
      ["CREATE ROLE app\n  LOGIN\n  PASSWORD 'letmein';", `CREATE ROLE app\n  LOGIN\n  PASSWORD '${REDACTED}';`],
      ['the password is still only hunter2', `the password is still only ${REDACTED}`],
      ['the password is also just hunter2', `the password is also just ${REDACTED}`],
      ['the password is only hunter2', `the password is only ${REDACTED}`],
      // A method named password is code, read as a bare `password`: a made value is one, plain words are not.
      ['DataSource.builder().password("hunter2")', `DataSource.builder().password("${REDACTED}")`],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
    const ordinary = [
      'it(\'create user rejects password "too short"\')',
      'Sign in with password "Remember me" checkbox',
      'The create login form has a password "eye" icon',
      'Passwort lautet wie folgt: siehe unten',
      'Das Passwort ist oben',
      ...['masked', 'displayed', 'configurable', 'lowercase', 'compared'].map((w) => `the password is now ${w}`),
      'the password is now sixteen characters',
      'the password is now 12 characters long',
      'the password is only 8 characters',
      'Das Passwort ist jetzt 12 Zeichen lang',
      'Das Passwort ist jetzt maskiert',
      'Das Passwort ist jetzt Pflicht',
      'the password is only required for admins',
      'the password is just a string',
      'form.password("Remember me")',
    ];
    for (const text of ordinary) expect(redactSecrets(text), text).toBe(text);
  });

  it('the prose shapes take no more than a moment over long runs of spaces after a credential\'s name', () => {
    // Unbounded `\s+ is \s*:?\s+` backtracked: 20,000 spaces after "token is" took 1.4 s. Timed at 800,000
    // spaces against 200,000: one shape reads 20,000 in well under a millisecond, too quick to time.
    for (const id of ['password-in-prose', 'quoted-credential-in-prose', 'credential-in-prose', 'password-named-bare']) {
      for (const name of ['password is', 'token is', 'the passphrase is', 'API key']) {
        const spaced = (spaces: number) => `${name}${' '.repeat(spaces)}"x" ${'\t'.repeat(spaces / 4)}: y`;
        expect(redactionGrowth(spaced, 800_000, (text) => redactWithShape(text, id)), `${id}: ${name}`).toBeLessThan(LINEAR_GROWTH);
      }
    }
  });

  it('every shape that reads whitespace redacts a long run of spaces, tabs or newlines after its label, or its label repeated, in a moment', () => {
    // Unbounded `\s*` in a look-behind was tried at every position of a run and scanned it back to its
    // start: 20,000 spaces after `--password` took 1.6 s. Each label marks with `·` where a run may stand.
    // Timed at CHARS against a quarter of it: at 200,000 its seven hundred texts would take a minute.
    const CHARS = 40_000;
    const worst = (label: string | Sized): Sized[] =>
      typeof label === 'function'
        ? [label]
        : [
            ...[...label.matchAll(/·/g)].flatMap((at) =>
              [' ', '\t', '\n'].map((ch) => (chars: number) => `${label.slice(0, at.index).replaceAll('·', ' ')}${ch.repeat(chars)}${label.slice(at.index + 1).replaceAll('·', ' ')}!`),
            ),
            run('', label.replaceAll('·', ' ')),
          ];
    const slow: string[] = [];
    for (const shape of SECRET_SHAPES.filter((s) => /\\s/.test(s.pattern.source))) {
      const labels = WORST_LABELS[shape.id];
      expect(labels, `${shape.id} has no worst case`).toBeDefined();
      for (const make of (labels ?? []).flatMap(worst)) {
        const growth = redactionGrowth(make, CHARS);
        if (growth >= LINEAR_GROWTH) slow.push(`${shape.id}: ${JSON.stringify(make(24).slice(0, 24))}… ${growth.toFixed(1)} times as long at four times the length`);
      }
    }
    expect(slow).toEqual([]);
  });

  it('keeps out of those exceptions what a reviewer smuggled through: secrets that read like a name, a one-folder "path" after pwd, a passphrase of two words', () => {
    const secrets = [
      ['JWT_SECRET=my-super-secret-jwt-key', 'my-super-secret-jwt-key'],
      ['SESSION_SECRET=keyboard-cat-secret', 'keyboard-cat-secret'],
      ['API_KEY=super-secret-api-key', 'super-secret-api-key'],
      ['secret_key = "django-insecure-secret-key"', 'django-insecure-secret-key'],
      ['token: abcdefghijkl-token', 'abcdefghijkl-token'],
      ['Server=db;Uid=sa;Pwd=/Xk9mQ2a;', '/Xk9mQ2a'],
      ['pwd=/hunter2', 'hunter2'],
      ['OLDPWD=/Tr0ub4dor3', 'Tr0ub4dor3'],
      ['pwd is /hunter2Xy', 'hunter2Xy'],
      ['my password is walrus-free', 'walrus-free'],
      ['the passphrase is fail-safe', 'fail-safe'],
      ['password is read-hunter', 'read-hunter'],
      ['wifi password is case-tiger', 'case-tiger'],
    ];
    for (const [text, secret] of secrets) expect(redactSecrets(text!), text).not.toContain(secret);
    // Under the bare key a Kubernetes manifest names its secret with, a name of words stays.
    for (const text of ['secret: my-app-secret-name-production', 'secretName: my-app-tls-secret']) expect(redactSecrets(text), text).toBe(text);
  });

  it('a quoted value that never closes, over many CRLF line breaks, is read in a moment (each CRLF could be split two ways)', () => {
    // The two short ones guard against exponential reading, which takes seconds to minutes: their bound is a second.
    for (const text of [`password: 'x${'\r\n'.repeat(40)}y`, `pwd="${'a\r\n'.repeat(40)}`]) {
      const began = performance.now();
      redactSecrets(text);
      expect(performance.now() - began, JSON.stringify(text.slice(0, 12))).toBeLessThan(1000);
    }
    // 200,000 characters take a few ms: timed at 800,000 against a quarter of it.
    expect(redactionGrowth((chars) => `password = "${'ab\r\n'.repeat(chars / 4)}`, 800_000)).toBeLessThan(LINEAR_GROWTH);
  });

  it('the shapes added for SQL\'s doubled quotes, a quoted value over line breaks and a password named for something read 200 KB of their worst case in a moment', () => {
    const fill = (unit: string) => (chars: number) => unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
    const texts: Sized[] = [(chars) => `PASSWORD 'a${"''".repeat(chars / 2)}`, fill("PASSWORD '"), (chars) => `password = "${'a\n'.repeat(chars / 2)}`, fill('password = "a\n'), fill('password for the db '), (chars) => `Passwort: „${'x'.repeat(chars)}`, fill('pass: '), fill('API key - '), (chars) => `PASSWORD "a${'\\"'.repeat(chars / 2)}`, (chars) => `IDENTIFIED BY 'a${'\\\\'.repeat(chars / 2)}`, fill('PASSWORD "a\\'), fill('pwd: ~/a1B'), fill('Das Passwort ist '), fill('Das Passwort ist jetzt '), fill('password is now '), fill('Das Passwort ist immer noch '), fill('Das Passwort für die DB lautet: '), fill('pwd: ~/a1B/'), fill('PASSWORD "a1B-'), fill('is now also '), fill('password is now also '), fill('wie folgt '), fill('Das Passwort lautet wie folgt '), (chars) => `IDENTIFIED BY "a${'a'.repeat(chars)}`, fill('ALTER USER app PASSWORD "a'), fill('ALTER USER '), fill('pwd: ~/a-1B'), fill('IDENTIFIED WITH '), fill('IDENTIFIED WITH p BY "a'), fill('PASSWORD('), fill('PASSWORD("a'), (chars) => `WITH PASSWORD E'a${'\\\\'.repeat(chars / 2)}`, fill("WITH PASSWORD E'"), fill('is still only ')];
    const slow: string[] = [];
    for (const make of texts) {
      const growth = redactionGrowth(make, 200_000);
      if (growth >= LINEAR_GROWTH) slow.push(`${JSON.stringify(make(16).slice(0, 16))}… ${growth.toFixed(1)} times as long at four times the length`);
    }
    expect(slow).toEqual([]);
  });

  it('a JWT\'s shape reads a long run of token characters with many `eyJ` in it in a moment, and still finds one glued after `_` or `-`', () => {
    // Every `eyJ` in the run started a match that ran to the run's end looking for a dot: 44,000
    // characters took 130-190 ms.
    const run = 'eyJaaaa-'.repeat(5_500);
    expect(redactSecrets(run)).toBe(run);
    // Timed at 200,000 characters against a quarter of it.
    expect(redactionGrowth((chars) => 'eyJaaaa-'.repeat(chars / 8), 200_000)).toBeLessThan(LINEAR_GROWTH);
    // A header of any length where a run starts (an x5c certificate chain in it).
    const long = `eyJ${'x'.repeat(3_000)}.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`;
    expect(redactSecrets(`Bearer ${long}`)).not.toContain('SflKxwRJ');
    // A JWT after a space, a quote, `=` or `/` is still one.
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${'eyJzdWIiOiIxMjM0NTY3ODkwIn0'}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`;
    for (const before of [' ', '"', '=', '/', ':', '_', '-', '--', 'access_token_']) expect(redactSecrets(`x${before}${jwt}`)).not.toContain('SflKxwRJ');
  });

  it('hides a quoted password with an escaped quote inside it whole, in JSON text and in JSON inside JSON (an attacker\'s finding)', () => {
    expect(redactSecrets('{"password":"it\\"s-a-s3cret"}')).toBe('{"password":"[REDACTED]"}');
    expect(redactSecrets("password = 'it\\'s-secret9'")).toBe("password = '[REDACTED]'");
    expect(redactSecrets('{\\"password\\": \\"hunter2abc\\", \\"user\\": \\"ana\\"}')).toBe('{\\"password\\": \\"[REDACTED]\\", \\"user\\": \\"ana\\"}');
    expect(redactSecrets("DB_PASSWORD='hunter2' other='keep'")).toBe("DB_PASSWORD='[REDACTED]' other='keep'");
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
      'the password is required',
      'Your password is too short.',
      'the password is “required” here',
      'the token is «expired»',
      'API key: id:secret pairs are split at the colon',
      'token: "waiting for the user"',
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
