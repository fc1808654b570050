import { describe, expect, it } from 'vitest';
import { createRedactor, redactSecrets } from '../../../core/secrets/index.js';

/**
 * QA: a message that starts with a plain English verb (`use curl -u admin:…`, `run mysql -p…`, `run sshpass
 * -p …`) came back whole, while the same after "then", "sudo" or "I ran" was redacted: the rule that keeps
 * `grep -r mysql src/` from being read as mysql took "run" and "use" for commands whose argument was mysql.
 */

/** A text placed inside JSON strings `levels` deep (1: `{"output":"…"}`; 3: a string in a string in a string). */
function nested(text: string, levels: number): string {
  let out = text;
  for (let i = 0; i < levels; i += 1) out = JSON.stringify({ output: out });
  return out;
}

/** Every public way a whole text is redacted: redactSecrets, redactSync, redact, redactMany (alone and among others). */
async function allWays(text: string): Promise<string[]> {
  const r = createRedactor();
  return [redactSecrets(text), r.redactSync(text), await r.redact(text), ...(await r.redactMany([text])), (await r.redactMany(['nothing here', text]))[1]!];
}

/** Each output of each way of redacting `texts` (as written and `levels` JSON levels deep) that still shows `secret`. */
async function shown(texts: readonly string[], secret: string, levels: readonly number[] = [0, 1, 2, 3]): Promise<string[]> {
  const out: string[] = [];
  for (const text of texts) for (const level of levels) for (const r of await allWays(nested(text, level))) if (r.includes(secret)) out.push(`[L${level}] ${r}`);
  return out;
}

/** The texts that any way of redacting changed, as written and `levels` JSON levels deep. */
async function changed(texts: readonly string[], levels: readonly number[] = [0, 1, 2, 3]): Promise<string[]> {
  const out: string[] = [];
  for (const text of texts) for (const level of levels) for (const r of await allWays(nested(text, level))) if (r !== nested(text, level)) out.push(`[L${level}] ${r}`);
  return out;
}

// Every secret below ends in `9Zq1xyz`.
const S = '9Zq1xyz';

describe('a command named after a plain English verb at the start of a message is the command', () => {
  it("QA's three: use curl -u, run mysql -p, run sshpass -p", async () => {
    const texts = [`use curl -u admin:CorrectHorse${S} https://x`, `run mysql -u root -pS3cr3t${S} db`, `run sshpass -p Sup3rS3cret${S} ssh x`];
    expect(await shown(texts, S)).toEqual([]);
  });

  it.each(['run', 'use', 'try', 'call', 'execute', 'exec', 'type', 'enter', 'with', 'via', 'please run', 'running', 'using', 'ran'])(
    '"%s" then mysql, curl, sshpass',
    async (verb) => {
      const texts = [`${verb} mysql -u root -pS3cr3t${S} db`, `${verb} curl -u admin:Horse${S} https://x`, `${verb} sshpass -p Sup3r${S} ssh x`];
      expect(await shown(texts, S)).toEqual([]);
    },
  );

  it('after a colon, a backtick, a quote, a line break or a prompt', async () => {
    const texts = [
      `Step 2: run mysql -u root -pS3cr3t${S} db`,
      `To connect:run mysql -u root -pS3cr3t${S} db`,
      '`use curl -u admin:Horse' + S + ' https://x`',
      `"run sshpass -p Sup3r${S} ssh x"`,
      `'try mysql -uroot -pS3cr3t${S}'`,
      `first this\nrun mysql -u root -pS3cr3t${S} db`,
      `$ run mysql -u root -pS3cr3t${S} db`,
      `ok; use curl -u admin:Horse${S} https://x`,
    ];
    expect(await shown(texts, S)).toEqual([]);
  });
});

describe("a command's name that is another command's argument still is not the command", () => {
  it('grep -r, which, man, apt install, brew install, paths keep their words', async () => {
    const texts = [
      'grep -r mysql src/ -prune',
      'which mysql -pla',
      'which curl -u ana:Xy9',
      'man curl -u ana:Xy9',
      'man sshpass -p opt',
      'apt install mysql-client -plain',
      'sudo apt install mysql-client',
      'brew install sshpass',
      'brew info sshpass',
      'find /var/lib/mysql -perm 644',
      'ls mysql -pla',
      'use /var/lib/mysql -pla',
    ];
    expect(await changed(texts)).toEqual([]);
  });
});
