import { describe, expect, it } from 'vitest';
import { createRedactor, redactSecrets } from '../../../core/secrets/index.js';
import { LINEAR_GROWTH, redactionGrowth } from './growth.js';

/**
 * What a quoted password read to its own kind of quote still got wrong: the shell's spelling of a
 * single quote inside single quotes, double-quoted shell values three JSON levels deep, curl's quote
 * opened after the user; a prompt's closing quote read as a value's opening one; a 100 KB line of
 * `-p'` after one `mysql`; and secretlint's range taking a quoted URI's closing quote.
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

describe("a single-quoted password holding its own quote as the shell spells it ('\\'' and '\"'\"')", () => {
  it('PGPASSWORD, --password, mysql -p and curl -u hide the whole password, at every JSON depth', async () => {
    const texts = [
      `export PGPASSWORD='s3cr'\\''et9Zq'; psql -h db`,
      `export PGPASSWORD='s3cr'"'"'et9Zq'; psql -h db`,
      `deploy --password 'ab'\\''et9Zq' --yes`,
      `mysql -u root -p'pa'\\''et9Zq' shop`,
      `curl -u 'admin:p'\\''et9Zq' https://api.example.com`,
    ];
    expect(await shown(texts, 'et9Zq')).toEqual([]);
  });

  it("a YAML or SQL doubled quote followed by a comma is the value's own", async () => {
    expect(await shown([`password: 'pa'',ss9Zq'`], 'ss9Zq', [0, 1])).toEqual([]);
  });

  it('quoted words after the shell has closed a quote keep theirs', async () => {
    const text = `echo 'it'\\''s done' && DB_PASSWORD='Xk9'\\''mZ2q' ./run && echo 'bye now'`;
    for (const out of await allWays(text)) {
      expect(out).toContain(`echo 'it'\\''s done'`);
      expect(out).toContain(`echo 'bye now'`);
      expect(out).not.toContain('mZ2q');
    }
  });
});

describe('a double-quoted shell password inside JSON strings three levels deep', () => {
  it('PGPASSWORD="…", DB_PASSWORD="…\';…", --password "…", curl -u "…", mysql -p"…"', async () => {
    const texts = [`export PGPASSWORD="S3cretet9Zq"; psql`, `DB_PASSWORD="s3cr';et9Zq" ./start`, `run --password "S3cr',et9Zq" x`, `curl -u "admin:S3cret9Zqet9Zq" https://x`, `mysql -u root -p"S3cret9Zqet9Zq" db`];
    expect(await shown(texts, 'et9Zq', [3])).toEqual([]);
  });

  it('the command after the closing quote stays', async () => {
    for (const out of await allWays(nested(`export PGPASSWORD="S3cretet9Zq"; psql -h db.internal`, 3))) expect(out).toContain('psql -h db.internal');
  });
});

describe('curl -u with the quote opened after the user, or a user holding the other quote', () => {
  it("curl -u admin:'…', admin:\"…\" and --user \"o'brien:…\"", async () => {
    expect(await shown([`curl -u admin:'p"et9Zq' https://x`, `curl -u admin:"S3cret et9Zq" https://x`, `curl --user "o'brien:S3cret9et9Zq" https://x`], 'et9Zq', [0, 1])).toEqual([]);
  });

  it('the user and the URL stay shown', async () => {
    for (const out of await allWays(`curl -u admin:'p"et9Zq' https://api.example.com/v1`)) expect(out).toBe(`curl -u admin:'[REDACTED]' https://api.example.com/v1`);
  });
});

describe("a prompt's closing quote is not a password's opening one", () => {
  it('read -p "Password: " then a line with single quotes keeps its words', async () => {
    const text = `read -p "Password: " PW\necho 'it works' and more words && echo "done"`;
    for (const level of [0, 1, 2]) for (const out of await allWays(nested(text, level))) expect(out).toContain('PW');
    for (const level of [0, 1, 2]) for (const out of await allWays(nested(text, level))) expect(out).toContain('it works');
  });

  it('printf "password: "; read x; echo \'…\' keeps the rest of the command line', async () => {
    const text = `printf "password: "; read x; echo 'we are done, thanks' > out.txt; echo "ok"`;
    for (const level of [0, 1]) for (const out of await allWays(nested(text, level))) expect(out).toBe(nested(text, level));
  });

  it('a tool output after an unclosed prompt quote keeps its sentences (JSON-wrapped, as Codex stores output)', async () => {
    const text = `Enter your password: "\nThat's all it takes. Don't share it with anyone, it's yours.\nNext step: run "make"`;
    for (const out of await allWays(nested(text, 1))) expect(out).toBe(nested(text, 1));
  });

  it('prose and scripts around a prompt keep their words', async () => {
    const texts = [
      `read -s -p "Password: " PW; echo; mysql -u app -p"$PW" shop`,
      `echo -n "New password: " && read -s NEW && echo "it's set, you're done"`,
      `Password: " (the quote opens a prompt)\nthen it's asked again: "Confirm"`,
      `input("Password: ") or 'guest' if it's a demo, "ok"`,
      `The dialog says "Enter password: " and waits.\nIt's fine to press 'Cancel' there, then "Retry".`,
    ];
    for (const text of texts) for (const level of [0, 1]) for (const out of await allWays(nested(text, level))) expect(out).toBe(nested(text, level));
  });

  it('a quoted password after such a sign is still hidden, on its line and wrapped over one', async () => {
    expect(await shown([`password: ";Xk9q!mZ2"`, `PASSWORD="s3cr'et9Zq" ./run`, `password = "correct horse\n  battery9Zq"`], '9Zq', [0, 1])).toEqual([]);
  });
});

describe("mysql then a 100 KB line of -p' reads in a moment", () => {
  // The optional quote before the command's 500-character look-back ran it twice at each `-p'`: 119-281 ms.
  // Timed at 1 MB against a quarter of it: at 100 KB, 1-2 ms, a quarter of it is too quick to time.
  const fill = (unit: string) => (chars: number) => `mysql ${unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars)}`;
  for (const unit of [` -p'`, ` -p"`, ` -p'x`, ` -p"a'`]) {
    it(`mysql then ${JSON.stringify(unit)} repeated`, () => {
      expect(redactionGrowth(fill(unit)), unit).toBeLessThan(LINEAR_GROWTH);
    });
  }

  it('every -p of a line still hides its password, and another mysql after the first', () => {
    expect(redactSecrets(`mysqldump -u root -p'Xk9q&mZ2' shop | mysql -h db2 -pS3cretX9 shop`)).toBe(`mysqldump -u root -p'[REDACTED]' shop | mysql -h db2 -p[REDACTED] shop`);
  });
});

describe("secretlint's range in quotes", () => {
  it('keeps the closing quote of a quoted URI, as written and in a JSON string', async () => {
    const r = createRedactor();
    expect(await r.redact(`psql 'postgresql://ana:pw@db/prod' -c 'select 1'`)).toBe(`psql '[REDACTED]' -c 'select 1'`);
    expect(await r.redact(`psql "postgresql://ana:pw@db/prod" -c 1`)).toBe(`psql "[REDACTED]" -c 1`);
    const json = JSON.stringify({ cmd: `psql "postgresql://ana:pw@db/prod"` });
    const out = await r.redact(json);
    expect(JSON.parse(out)).toEqual({ cmd: `psql "[REDACTED]"` });
  });
});
