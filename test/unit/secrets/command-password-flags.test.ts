import { describe, expect, it } from 'vitest';
import { createRedactor, redactSecrets } from '../../../core/secrets/index.js';
import { CONTEXTS, inContext, leaks } from './corpus.js';

/**
 * Passwords given to common commands on their command line (QA 45, B2): `docker login -p`, `redis-cli
 * -a`, `sudo -S` fed by echo, printf or a here-string, `chpasswd`, `passwd --stdin`, `smbclient -U
 * user%password`, `sqlcmd -P`, `htpasswd -b`, `ldapsearch -w`. Each is hidden as written, in every
 * corpus context (prose, code, a command line, JSON), across a shell's line continuations, coloured,
 * and in a shell tool's JSON wrapper; the same flags in prose or after another command keep their words.
 */

const E = '\x1b';
const wrapper = (output: string) => JSON.stringify({ output, metadata: { exit_code: 0, duration_seconds: 0.1 } });

/** Every way the app redacts a whole text: the table alone (redactSync), and table + secretlint. */
async function bothWays(text: string): Promise<string[]> {
  return [redactSecrets(text), await createRedactor().redact(text)];
}

/** A command line and the password in it. */
const COMMANDS: Array<[string, string]> = [
  ['docker login -u ana -p Dock3rPassw0rd! registry.io', 'Dock3rPassw0rd!'],
  ["podman login -u ana -p 'Podm4n&Pw0rd' quay.io", 'Podm4n&Pw0rd'],
  ['docker login registry.io -u ana -p=Dock3rPassw0rd9', 'Dock3rPassw0rd9'],
  ['redis-cli -h cache -a R3disPassw0rdC ping', 'R3disPassw0rdC'],
  ['redis-cli -h cache -p 6380 -a "R3dis;Passw0rd" --no-auth-warning info', 'R3dis;Passw0rd'],
  ['redis-cli -h cache --user app --pass R3disPassw0rdC ping', 'R3disPassw0rdC'],
  ['redis-cli -u redis://:R3disPassw0rdC@cache:6379/0 ping', 'R3disPassw0rdC'],
  ["echo 'SudoPassw0rdE' | sudo -S apt update", 'SudoPassw0rdE'],
  ['echo SudoPassw0rdE | sudo -kS apt update', 'SudoPassw0rdE'],
  ["printf 'SudoPassw0rdE\\n' | sudo -S -k systemctl restart nginx", 'SudoPassw0rdE'],
  ["printf '%s\\n' \"SudoPassw0rdE\" | sudo -S true", 'SudoPassw0rdE'],
  ["sudo -S apt update <<< 'SudoPassw0rdE'", 'SudoPassw0rdE'],
  ["echo 'ana:ChPassw0rdK' | chpasswd", 'ChPassw0rdK'],
  ['echo "ana:ChPassw0rdK" | sudo chpasswd', 'ChPassw0rdK'],
  ["echo 'StdinPassw0rdL' | passwd --stdin ana", 'StdinPassw0rdL'],
  ['smbclient //srv/share -U ana%SmbPassw0rdF', 'SmbPassw0rdF'],
  ["smbclient -U 'CORP\\ana%SmbPassw0rdF' //srv/share -c ls", 'SmbPassw0rdF'],
  ["sqlcmd -S srv -U sa -P SqlPassw0rdG -Q 'select 1'", 'SqlPassw0rdG'],
  ["sqlcmd -S srv -U sa -P 'Sql Passw0rdG' -d app", 'Sql Passw0rdG'],
  ['htpasswd -b .htpasswd ana HtPassw0rdI', 'HtPassw0rdI'],
  ['htpasswd -nbB ana HtPassw0rdI > users', 'HtPassw0rdI'],
  ["htpasswd -bc /etc/nginx/.htpasswd ana 'Ht&Passw0rdI' && nginx -s reload", 'Ht&Passw0rdI'],
  ['ldapsearch -x -D cn=admin -w LdapPassw0rdJ', 'LdapPassw0rdJ'],
  ["ldapadd -x -D 'cn=admin,dc=example,dc=org' -w 'LdapPassw0rdJ' -f users.ldif", 'LdapPassw0rdJ'],
  ['ldapmodify -x -D cn=admin -w LdapPassw0rdJ -f change.ldif', 'LdapPassw0rdJ'],
  ['ldapdelete -x -D cn=admin -w LdapPassw0rdJ uid=ana,ou=people', 'LdapPassw0rdJ'],
];

/** The command split over lines with a shell's continuation before each flag. */
const continued = (command: string) => command.replace(/ (?=-{1,2}[A-Za-z])/g, ' \\\n  ');

describe('passwords on common command lines (QA 45, B2)', () => {
  it('are hidden as written', async () => {
    for (const [command, secret] of COMMANDS) {
      for (const out of await bothWays(command)) {
        expect(leaks(out, secret), `${command} → ${out}`).toBe(false);
        expect(out, command).toContain('[REDACTED]');
      }
    }
  });

  it('are hidden in every corpus context: prose, code, a command line, JSON', async () => {
    for (const [command, secret] of COMMANDS) {
      for (const context of CONTEXTS) {
        for (const out of await bothWays(inContext(command, context))) expect(leaks(out, secret), `${command} (${context}) → ${out}`).toBe(false);
      }
    }
  });

  it('are hidden across line continuations, plain and in JSON', async () => {
    for (const [command, secret] of COMMANDS) {
      const text = continued(command);
      for (const out of [...(await bothWays(text)), ...(await bothWays(JSON.stringify({ command: text, description: 'run it' })))]) {
        expect(leaks(out, secret), `${text} → ${out}`).toBe(false);
      }
    }
  });

  it('are hidden when coloured, and in a shell tool’s JSON wrapper, which stays JSON', async () => {
    for (const [command, secret] of COMMANDS) {
      const coloured = command.replace(secret, `${E}[1m${secret}${E}[22m`);
      for (const text of [`${E}[32m$${E}[0m ${command}`, coloured, wrapper(`$ ${command}\nok`), wrapper(coloured)]) {
        for (const out of await bothWays(text)) {
          expect(leaks(out, secret), `${JSON.stringify(text)} → ${JSON.stringify(out)}`).toBe(false);
          if (text.startsWith('{')) expect(() => JSON.parse(out) as unknown).not.toThrow();
        }
      }
    }
  });

  it('keep what follows the password: the command’s other words and the quote around it', () => {
    expect(redactSecrets('docker login -u ana -p Dock3rPassw0rd! registry.io')).toBe('docker login -u ana -p [REDACTED] registry.io');
    expect(redactSecrets("echo 'SudoPassw0rdE' | sudo -S apt update")).toBe("echo '[REDACTED]' | sudo -S apt update");
    expect(redactSecrets('smbclient //srv/share -U ana%SmbPassw0rdF -c ls')).toBe('smbclient //srv/share -U ana%[REDACTED] -c ls');
    expect(redactSecrets('htpasswd -b .htpasswd ana HtPassw0rdI')).toBe('htpasswd -b .htpasswd ana [REDACTED]');
    expect(redactSecrets("sqlcmd -S srv -U sa -P 'SqlPassw0rdG' -Q 'select 1'")).toBe("sqlcmd -S srv -U sa -P '[REDACTED]' -Q 'select 1'");
  });

  it('leave the same flags alone in prose, without a value, after other commands, or as a prompt', async () => {
    const ordinary = [
      'use -p to print',
      'redis-cli -a is deprecated',
      'redis-cli -a with the password in clear is deprecated',
      'docker login -p is insecure, use --password-stdin',
      'docker login -p and -u take the credentials',
      'Pass it with sqlcmd -P.',
      'sqlcmd -P or -U may be given',
      'ls -a',
      'ls -a ~/src && grep -w word file',
      'grep -w word file',
      'docker ps -a -q',
      'docker login registry.io && ssh -p 2222 deploy@host',
      'redis-cli ping | grep -w PONG',
      'ldapsearch -W -x -D cn=admin -b dc=example,dc=org',
      'ldapsearch -x -D cn=admin -w $LDAP_PASSWORD',
      'docker login -u ana -p "$DOCKER_PASSWORD" registry.io',
      'echo hello | sudo tee /etc/motd',
      'echo "$PW" | sudo -S true',
      'htpasswd -b takes the password on the command line',
      'htpasswd -c .htpasswd ana',
      'smbclient -U ana //srv/share',
      "printf '%s' done",
      'redis-cli -a\nping',
      'git log -p -w',
      'echo y | sudo pacman -S vim',
      'yes | sudo apt-get install -y vim',
    ];
    for (const text of ordinary) for (const out of await bothWays(text)) expect(out, text).toBe(text);
  });
});
