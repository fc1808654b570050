import { describe, expect, it } from 'vitest';
import { createRedactor, redactSecrets } from '../../../core/secrets/index.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

/**
 * What a second look at the command-line password rules found (QA 45b): a bare password ending a JSON
 * string two or three levels deep took the escape's backslashes with it; any ` -pX` after a mere mention
 * of mysql was hidden, as were shell variables and a command substituted in backticks; 100 KB lines after
 * one command took up to 0.3 s; and forms and commands the rules did not know kept their passwords.
 */

/** A text placed inside JSON strings `levels` deep (1: `{"output":"…"}`). */
function nested(text: string, levels: number): string {
  let out = text;
  for (let i = 0; i < levels; i += 1) out = JSON.stringify({ output: out });
  return out;
}

/** For each text (as written and `levels` JSON levels deep), every redaction (sync and async) that still shows `secret`. */
async function shown(texts: readonly string[], secret: string, levels: readonly number[] = [0, 1, 2]): Promise<string[]> {
  const r = createRedactor();
  const out: string[] = [];
  for (const text of texts)
    for (const level of levels) {
      const t = nested(text, level);
      for (const [way, res] of [['sync', redactSecrets(t)], ['async', await r.redact(t)]] as const) if (res.includes(secret)) out.push(`[L${level} ${way}] ${res}`);
    }
  return out;
}

/** Texts whose redaction (sync or async) differs from the text: each with what came back. */
async function changed(texts: readonly string[]): Promise<string[]> {
  const r = createRedactor();
  const out: string[] = [];
  for (const t of texts) for (const res of [redactSecrets(t), await r.redact(t)]) if (res !== t) out.push(`${t}  =>  ${res}`);
  return [...new Set(out)];
}

/** The text's JSON strings as read, level by level down to the command: throws if a level no longer parses. */
function innermost(text: string, levels: number): string {
  let t = text;
  for (let i = 0; i < levels; i += 1) t = (JSON.parse(t) as { output: string }).output;
  return t;
}

describe('a bare password that ends a nested JSON string leaves the escaped quote that closes it', () => {
  it.each([
    'redis-cli -a Rd9Zq1xyz',
    'sqlcmd -S srv -U sa -PSq9Zq1xyz',
    'ldapwhoami -x -w Ld9Zq1xyz',
    'smbclient //srv/s -U ana%Sm9Zq1xyz',
    'htpasswd -nb ana Ht9Zq1xyz',
    'sudo -S ls <<< Su9Zq1xyz',
    'curl -u admin:Cu9Zq1xyz',
    'mysql -u root -pXray9Zq1; mysql -pYank9Zq2',
  ])('%s, 2 and 3 levels deep, still parses to the command with only the password hidden', (command) => {
    for (const levels of [2, 3]) {
      const out = redactSecrets(nested(command, levels));
      expect(() => innermost(out, levels), `L${levels}: ${out}`).not.toThrow();
      expect(innermost(out, levels)).toMatch(/\[REDACTED\]$/);
    }
  });
});

describe('a command rule reads its flag only after its own command, and a reference reveals nothing', () => {
  it('find/grep/git/ls options after a mysql path or argument are not passwords, as written or in JSON strings', async () => {
    const texts = ['find /var/lib/mysql -name "*.ibd" -print', 'find /etc/mysql -type f -perm 644', 'grep -r mysql src/ -prune', 'git log -p mysql.cnf -pretty', 'ls mysql -pla', 'which curl -u ana:Xy9'];
    expect(await changed([0, 1, 2, 3].flatMap((levels) => texts.map((t) => nested(t, levels))))).toEqual([]);
  });

  it('mysql run by sudo, in a container, after a prompt or named in prose still has its password hidden', async () => {
    const texts = ['sudo mysql -u root -pMy9Zq1xyz', 'docker exec -it db mysql -uroot -pMy9Zq1xyz', '$ mysql -pMy9Zq1xyz', 'I ran mysql -u root -pMy9Zq1xyz shop', 'kubectl exec db -- mysql -pMy9Zq1xyz', '/usr/bin/mysql -pMy9Zq1xyz'];
    expect(await shown(texts, '9Zq1xyz')).toEqual([]);
  });

  it('echo "$user:$pass" | chpasswd, chpasswd <<< "$U:$P", echo $1 | sudo -S keep their words', async () => {
    expect(await changed(['echo "$user:$pass" | chpasswd', 'echo "${USERNAME}:${PASSWORD}" | chpasswd', 'chpasswd <<< "$USER:$NEWPW"', 'echo $1 | sudo -S ls'])).toEqual([]);
  });

  it('a command substituted in backticks stays whole', async () => {
    expect(await changed(['docker login -u user -p `cat ~/pw.txt`'])).toEqual([]);
  });

  it("a document's words for a password (your_password, YOUR_TOKEN_HERE, yourpassword) stay", async () => {
    expect(await changed(['docker login -u user -p your_password', 'docker login -u user -p YOUR_TOKEN_HERE', 'redis-cli -a yourpassword ping'])).toEqual([]);
  });

  it('-p"$MYSQL_PWD", -p$(…) and "$SUDO_PASSWORD" still stay', async () => {
    expect(await changed(['mysql -h db -u root -p"$MYSQL_PWD" shop', 'mysql -uroot -p$(cat /run/secrets/db) -e "select 1"', 'echo "$SUDO_PASSWORD" | sudo -S apt-get update'])).toEqual([]);
  });

  it('`sshpass: command not found` names the command, not its variable', async () => {
    expect(await changed(['sshpass: command not found'])).toEqual([]);
  });
});

// Timed at 1 MB against a quarter of it: at 100 KB, 1-2 ms, a quarter of it is too quick to time.
describe('100 KB lines after one command name read in a moment', () => {
  const fill = (unit: string, head: string) => (chars: number) => (head + unit.repeat(Math.ceil((chars - head.length) / unit.length))).slice(0, chars);
  it.each([
    ["ldapsearch then -w'x", fill(" -w'x", 'ldapsearch')],
    ['ldapsearch then -w$x', fill(' -w$x', 'ldapsearch')],
    ['sudo -S then <<< a', fill(' <<< a', 'sudo -S')],
    ['sudo -S then <<< $a', fill(' <<< $a', 'sudo -S')],
    ['curl then -u a:', fill(' -u a:', 'curl')],
  ])('%s repeated', (name, make) => {
    expect(redactionGrowth(make), name).toBeLessThan(LINEAR_GROWTH);
  });
});

// Every secret below ends in `9Zq1xyz`.
const S = '9Zq1xyz';

describe("variations of the command rules' own forms", () => {
  it('docker login with the password glued to -p', async () => {
    expect(await shown(['docker login -u ana -pDk9Zq1xyz registry.io', 'docker login -uana -pDk9Zq1xyz'], S)).toEqual([]);
  });
  it('docker login --password-stdin fed by echo or a here-string', async () => {
    expect(await shown(['echo "Dk9Zq1xyz" | docker login ghcr.io -u ana --password-stdin', "docker login -u ana --password-stdin <<< 'Dk9Zq1xyz'"], S)).toEqual([]);
  });
  it('REDISCLI_AUTH and SSHPASS, the variables redis-cli and sshpass read', async () => {
    expect(await shown(['export REDISCLI_AUTH=Rd9Zq1xyz', 'REDISCLI_AUTH=Rd9Zq1xyz redis-cli ping', '{"env":{"REDISCLI_AUTH":"Rd9Zq1xyz"}}', 'SSHPASS=Ss9Zq1xyz sshpass -e ssh ana@host'], S)).toEqual([]);
  });
  it('redis AUTH typed at redis-cli (inline or at its prompt)', async () => {
    expect(await shown(['redis-cli -h cache AUTH default Rd9Zq1xyz', '127.0.0.1:6379> AUTH Rd9Zq1xyz'], S)).toEqual([]);
  });
  it('curl -u glued or in combined short flags, and the proxy user', async () => {
    expect(await shown(['curl -uadmin:Cu9Zq1xyz https://x', 'curl -su admin:Cu9Zq1xyz https://x', 'curl --proxy-user ana:Cu9Zq1xyz https://x', 'curl -U ana:Cu9Zq1xyz https://x'], S)).toEqual([]);
  });
  it("smbclient -U user%'quoted password'", async () => {
    expect(await shown(["smbclient //s/x -U ana%'Sm9 Zq1xyz'", 'smbclient //s/x -U ana%"Sm9Zq1xyz"'], S)).toEqual([]);
  });
  it('chpasswd by its path, passwd fed twice, and sudo -S on the far side of ssh', async () => {
    expect(await shown(['echo "ana:Ch9Zq1xyz" | sudo /usr/sbin/chpasswd', 'echo -e "Ch9Zq1xyz\\nCh9Zq1xyz" | sudo passwd ana', 'echo Su9Zq1xyz | ssh host sudo -S reboot'], S)).toEqual([]);
  });
  it('sshpass -p with a quoted password holding a space', async () => {
    expect(await shown(['sshpass -p "Ss9 Zq1xyz" ssh ana@host'], S)).toEqual([]);
  });
});

describe('more commands that take a password on their line', () => {
  it.each([
    ['PowerShell ConvertTo-SecureString', `$pw = ConvertTo-SecureString 'Ps9Zq1xyz' -AsPlainText -Force`],
    ['PowerShell -String', `$pw = ConvertTo-SecureString -String "Ps9Zq1xyz" -AsPlainText -Force`],
    ['expect send after a password prompt', 'spawn ssh ana@h\nexpect "password:"\nsend "Ex9Zq1xyz\\r"'],
    ['net use', 'net use \\\\srv\\share /user:ana Nu9Zq1xyz'],
    ['net use, the password first', 'net use Z: \\\\srv\\share Nu9Zq1xyz /user:ana'],
    ['net user /add', 'net user ana Nu9Zq1xyz /add'],
    ['.pgpass printed', '$ cat ~/.pgpass\ndb.example.com:5432:shop:ana:Pg9Zq1xyz'],
    ['psexec -p', 'psexec \\\\srv -u admin -p Pe9Zq1xyz cmd'],
    ['mongosh -p', 'mongosh -u ana -p Mg9Zq1xyz'],
    ['gpg --passphrase', 'gpg --batch --passphrase Gp9Zq1xyz -d f.gpg'],
    ['zip -P', 'zip -P Zp9Zq1xyz secret.zip f'],
    ['7z -p', '7z a -pZp9Zq1xyz a.7z f'],
    ['keytool -storepass', 'keytool -genkey -storepass Kt9Zq1xyz -keypass Kt9Zq1xyz'],
    ['openssl -k', 'openssl enc -aes256 -k Op9Zq1xyz -in f'],
    ['openssl -passin pass:', 'openssl rsa -in k.pem -passin pass:Op9Zq1xyz'],
    ['oc login -p', 'oc login -u ana -p Oc9Zq1xyz https://api'],
    ['cf login -p', 'cf login -u ana -p Cf9Zq1xyz'],
    ['smbmap -p', 'smbmap -H 10.0.0.1 -u ana -p Sm9Zq1xyz'],
    ['lftp -u user,pw', 'lftp -u ana,Lf9Zq1xyz sftp://host'],
    ['xfreerdp /p:', 'xfreerdp /u:ana /p:Xf9Zq1xyz /v:host'],
    ['rabbitmqctl add_user', 'rabbitmqctl add_user ana Rb9Zq1xyz'],
  ])('%s', async (_name, text) => {
    expect(await shown([text], S, [0, 1])).toEqual([]);
  });

  it('their prompts, options and ordinary lines stay', async () => {
    expect(await changed(['7z x -p backup.7z', 'net use Z: \\\\srv\\share * /user:ana', 'net user ana /domain', 'src/app.ts:12:5:error:x', '10:00:00:00:01', 'openssl req -keyout key.pem -k $PASS'])).toEqual([]);
  });
});
