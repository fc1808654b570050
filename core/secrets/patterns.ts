/**
 * Every rule for recognising a secret lives here, once: the log scrubber, the sweeper's redaction,
 * the notes writer, the session-start context and maintenance's non-secret checks all call these.
 * secretlint's precise rules run beside them where text leaves the machine (redact.ts); this table is
 * the generic layer that also guards synchronous paths such as log lines. Its shapes follow the
 * published rule sets of gitleaks and secretlint (prefixes, lengths, alphabets), written afresh here.
 * This file imports only json-reading.ts and words.ts, which import nothing, so a path that must start fast (the
 * session-start hook) can use it.
 */

import { jsonExtent, readingOf, storedSpans, withinString, type JsonReading } from './json-reading.js';
import { WordFinder } from './words.js';

export const REDACTED = '[REDACTED]';

export interface SecretShape {
  /** A stable name for tests and counts; never shown with the match. */
  id: string;
  /**
   * A global pattern matching only the secret part (look-behinds keep the label visible), or the label
   * and then the secret as a group named `value` that ends the match: a look-behind is tried at every
   * character, while a pattern that starts with its label's words is tried only where they stand.
   */
  pattern: RegExp;
  /** A second look at a match the pattern alone cannot judge (a code expression, a type name), with the pattern's named groups. */
  accept?: (match: string, groups?: Record<string, string | undefined>) => boolean;
  /**
   * Where a match's secrets are when they are not in the match (a table's column under the header row the pattern
   * found), and where the search goes on: the pattern finds where to look, this reads what is there.
   */
  cells?: (match: RegExpExecArray, text: string) => { spans: Span[]; end: number };
  /**
   * Words in lower case the pattern cannot match without (any one of them, in any case): a text holding
   * none is not searched. Most texts hold no secret, and ninety patterns with look-behinds cost most of
   * a search's redaction; a look for a word is far cheaper. The table's test checks each one is needed.
   */
  needs?: readonly string[];
}

/** Words that name a credential. Plurals and `api key` / `api_key` / `api-key` spellings included. */
const CREDENTIAL_WORD = String.raw`(?:api[_ -]?keys?|access[_ -]?keys?|auth[_ -]?keys?|tokens?|secrets?|passwords?|passwd|credentials?)`;
/**
 * Names whose assigned value is a secret whatever its shape (`DB_PASSWORD=…`, `"apiKey": "…"`); and those
 * that end in `pwd` or `_pass` (ODBC's `Pwd=…;`, `DB_PASS=…;`), where a token-like value shaped as an
 * identifier before `;` was taken for code by the password shapes.
 */
const SECRET_NAME = String.raw`(?:[A-Za-z0-9_]*(?:api[_-]?key|secret|token|passw(?:or)?d|passwd|credential|auth[_-]?key)[A-Za-z0-9_]*|[A-Za-z0-9_]*(?:pwd|_pass))`;
const WHOLE_SECRET_NAME = new RegExp(String.raw`^${SECRET_NAME}$`, 'i');

/**
 * A setting about a password, not one (`PasswordMinLength`, `PASSWORD_LENGTH`, `PasswordFormat`): its name's
 * last word, after `_`, `-`, `.` or a capital, is one of a rule's, a place's or a form's.
 */
const ABOUT_A_SECRET_WORDS = ['length', 'min', 'max', 'format', 'policy', 'reset', 'expiry', 'expires', 'folder', 'path', 'file', 'hash', 'hint', 'prompt', 'required'];
/** The word after a separator in any case (`PASSWORD_LENGTH`), or capitalised after a lower-case letter or digit (`PasswordMinLength`, not `PASSWORDADMIN`). */
const ABOUT_A_SECRET = [
  new RegExp(String.raw`[_.-](?:${ABOUT_A_SECRET_WORDS.join('|')})$`, 'i'),
  new RegExp(String.raw`[a-z0-9](?:${ABOUT_A_SECRET_WORDS.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('|')})$`),
];

/** Whether a whole setting's name (`SmtpPassword`, `DB_PASS`) is a secret's, and not a counter's, a reference's or a rule's (`max_tokens`, `secret_name`, `PASSWORD_LENGTH`). */
function isSecretName(name: string | undefined): boolean {
  return name !== undefined && WHOLE_SECRET_NAME.test(name) && !NOT_A_TOKEN.test(name) && !ABOUT_A_SECRET.some((about) => about.test(name));
}

// ------------------------------------------------------------------ value checks

/** Counts of each UTF-16 unit, zero between calls of entropy (it clears those it used). */
const UNIT_COUNTS = new Uint32Array(65_536);

/**
 * Shannon entropy in bits per character. A text without surrogates is counted by its units in a table kept
 * for it, in the order a map of its characters took them (the same sum, to the bit): a map per candidate took
 * half of redacting 1 MB of random client secrets said in prose (backtracking.test.ts).
 */
function entropy(text: string): number {
  let bits = 0;
  if (/[\ud800-\udfff]/.test(text)) {
    const counts = new Map<string, number>();
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
    return bits;
  }
  const seen: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const before = UNIT_COUNTS[unit]!;
    UNIT_COUNTS[unit] = before + 1;
    if (before === 0) seen.push(unit);
  }
  for (const unit of seen) {
    const n = UNIT_COUNTS[unit]!;
    bits -= (n / text.length) * Math.log2(n / text.length);
    UNIT_COUNTS[unit] = 0;
  }
  return bits;
}

const VALUE_KEYWORDS = new Set(
  'true false null none nil undefined string str bool boolean int integer number float bytes any object optional required secretstr secretbytes password yes no on off empty unset default'.split(' '),
);
/** A password manager whose name has a digit (`| Password | 1Password |`, `password: 1Password`): where it is kept, not it. */
const PASSWORD_MANAGER = /^1password$/i;
/** Placeholders and references: `<your-key>`, `<password>`, `${TOKEN}`, `$TOKEN`, `$user:$pass`, `$1`, `%TOKEN%`, `{{ secrets.X }}`, `***`, `xxxx`, `…`. */
const PLACEHOLDER = /^(?:<[^>]*>?|\$\{.*|\$\(.*|(?:\$(?:[A-Za-z_]\w*|\d)[:@/.,-]?)+|%[A-Za-z_]+%|\{\{.*|\{.*\}|\*+|x{3,}|X{3,}|\.{3,}|…|\[REDACTED\]|REDACTED|-+)$/;
/**
 * A document's words for a credential: "your", words joined by `_` or `-`, a credential's name, and
 * perhaps "here" (`your_password`, `yourpassword`, `YourApiKey`, `your_github_token_here`,
 * `your-secret-goes-here`); or `YOUR_…_HERE` in capitals (`YOUR_CLIENT_ID_HERE`). Nothing may follow:
 * `Yourpass2024`, `yourself123!` and `Your-Secret-Here2` are passwords. Each repeated group ends at a
 * separator, so a long value is read once through.
 */
const DOCUMENT_WORDS = [
  /^your[_-]?(?:[a-z]+[_-])*(?:password|passwd|pass|pwd|passphrase|token|key|secret|api[_-]?key|credential)s?(?:[_-](?:goes[_-])?here)?$/i,
  /^(?:[A-Z]+_)*YOUR_(?:[A-Z0-9]+_)+HERE$/,
];

/** Whether a value stands in for a secret rather than being one: a reference, a mask or a document's words. */
function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || DOCUMENT_WORDS.some((words) => words.test(value));
}
/**
 * What a format's placeholder may say after its colon: symbols and digits (`#,##0.00`, `.2f`, `>10`), a date's or a
 * number's letters (`yyyy-MM-dd HH:mm`, `hh:mm tt`, `0.00E+0`, ISO's `T`), strftime's `%` and a letter (`%Y-%m-%d`),
 * then perhaps one standard or type letter and a precision (`N2`, `X8`, `08.3f`). Any other letter makes it a value
 * (`token={0:Xk9mQ2zLw9aa}`, `{0:hunter2x}`): no format reads it. A date's literal in single quotes (`yyyy-MM-dd'T'HH:mm`)
 * is its own text, up to 8 characters. Each character is read one way (the classes exclude one another; only the last
 * letter may be read twice), within 32.
 */
const FORMAT_SPEC = String.raw`(?:[^A-Za-z{}\r\n"'\`\\%]|%[A-Za-z%]|[dfFghHKmMstyzTEe]|'[^'{}\r\n"\`\\]{0,8}'){0,32}(?:[A-Za-z]\d{0,3})?`;
/**
 * A format's numbered placeholder (`{0}`, `{0,-8}`, `{1:x}`, `{0:yyyy-MM-dd HH:mm}`, .NET's and Python's), perhaps a
 * field of the argument (Python's `{0.access_token}`, `{0[key]}`): filled in later, no secret.
 */
const FORMAT_PLACEHOLDER = String.raw`\{\d{1,3}(?:\.[A-Za-z_]\w{0,63}|\[\w{1,32}\]){0,4}(?:,-?\d{1,4})?(?::${FORMAT_SPEC})?\}`;
const FORMAT_INDEX = new RegExp(String.raw`^${FORMAT_PLACEHOLDER}$`);
/** A name in braces (`{name}`, `{db.Password}`): an interpolated string's placeholder when it has no digit or names a credential (BRACED_CREDENTIAL). */
const BRACED_NAME = /^\{[A-Za-z_][\w.]{0,63}\}$/;
/**
 * A credential's word in a braced name (`{dbPassword2}`, `{api_key1}`), a short one or an argument's starting it
 * (`{pw1}`, `{cred1}`, `{arg2}`, `{param3}`; inside, `{s3cr3t_pw}` is a password), or a numbered parameter (`{p1}`):
 * a placeholder's, digits and all.
 */
const BRACED_CREDENTIAL = /pass|pwd|secret|key|token|^(?:pw|cred|arg|param)|^p\d{1,2}$/i;

/** Whether a bare value is one in braces (BRACED): judged by isBracedSecret, where isLiteralValue takes any such for a placeholder. */
function isBraced(value: string): boolean {
  return /^\{(?:[^{}]|\}\})*\}$/.test(value);
}

/**
 * Whether a bare value in braces is a password: ODBC braces one that holds a `;` (`Pwd={Hx7;mQ2z};`), and a
 * connection string built by a format names its placeholders (`Password={0};`, `{password}`), which are none.
 * A name with a digit is a placeholder only when it names a credential (`{dbPassword2}`): `{hunter2}`,
 * `{x9k2m7q4}` and `{s3cr3t_pw}` are judged as any value is (isLiteralValue), and hidden whole.
 * A name of letters alone is hidden only when its cases alternate at random (`{xKqmPzRt}`, looksRandomCase): a
 * plain word in braces is as often a code variable (`password={draft}`, `{temp}`, `{self}`) as a password, and
 * hiding those cost more than it saved (attack-s49, the lead's decision).
 * Spaces inside the braces (`{ hunter2 }`) are read past; then the value must read as a literal (no call, no
 * member access: `{ getPassword() }` stays).
 * Risk: a braced password of plain letters (`{hunter}`, `{ letmein }`) is left shown.
 */
function isBracedSecret(value: string): boolean {
  const inner = value.slice(1, -1).trim();
  const spaced = inner.length !== value.length - 2;
  if (!/[\p{L}\p{N}]/u.test(inner) || FORMAT_INDEX.test(`{${inner}}`)) return false;
  if (!BRACED_NAME.test(`{${inner}}`)) return !spaced || isLiteralValue(inner);
  if (/\d/.test(inner)) return !BRACED_CREDENTIAL.test(inner) && isLiteralValue(inner);
  return looksRandomCase(inner) && !BRACED_CREDENTIAL.test(inner);
}

/** A code expression rather than a literal: a call, a member access, an index, an environment read. */
const EXPRESSION = /[()[\]]|^(?:process\.env|os\.environ|env\.|self\.|this\.|await\b|new\b|require\b|import\b|secrets\.|vars\.|inputs\.)|^[A-Za-z_$][A-Za-z_$]*\d{0,2}(?:[?!]?\.[A-Za-z_$][A-Za-z_$]*\d{0,2})+$/;

function strip(value: string): string {
  return value.replace(/^["'`]+|["'`,;]+$/g, '');
}

/** Whether an assigned password-like value is a literal secret rather than code, a type or a placeholder. */
export function isLiteralValue(raw: string): boolean {
  const value = strip(raw);
  // A value with no letter or digit at all is punctuation in prose or markup, not a password.
  if (!/[\p{L}\p{N}]/u.test(value) || isPlaceholder(value) || EXPRESSION.test(value) || PASSWORD_MANAGER.test(value)) return false;
  return !VALUE_KEYWORDS.has(value.toLowerCase());
}

/**
 * A value said in prose ("my password is Q9!z)K2#m"): any run with a letter or digit that is no
 * placeholder or keyword, and no call written out (`getPassword()`). Brackets alone make no code here:
 * as isLiteralValue judges code, one `)` left a password in prose whole.
 */
function isProseValue(raw: string): boolean {
  const value = strip(raw);
  if (!/[\p{L}\p{N}]/u.test(value) || isPlaceholder(value) || /^[A-Za-z_$][\w$.]*\(.*\)$/.test(value) || DESCRIBING_COMPOUND.test(value)) return false;
  return !VALUE_KEYWORDS.has(value.toLowerCase());
}

/**
 * What a password is said to be like ("is case-sensitive", "is read-only"), not what it is: a closed
 * list, since any open pattern (`read-<word>`, `<word>-free`) also keeps a passphrase of two words.
 */
const DESCRIBING_COMPOUND = /^(?:case-(?:in)?sensitive|read-only|write-only|read-write|auto-generated|randomly-generated|machine-generated|user-defined|hard-?coded|one-time|time-based|single-use|base64-encoded|hex-encoded|well-known|never-expiring|non-expiring)$/i;

/**
 * A working directory (`pwd: /home/ana/src`, `OLDPWD=~/src`): `pwd` or `oldpwd` and a path of at least
 * two folders, or one under `~`, with no symbol a path seldom has. A single segment stays a password
 * (`Pwd=/Xk9mQ2a;` in an ODBC string), as does `MYSQL_PWD=/s3cr3t!`, and so does one folder under `~`
 * that looks made as a bare `pass:` must (`pwd: ~/hunter2Xy`, `~/hunter2Xy/`; `~/projects` is a folder),
 * unless a `-`, `_` or `.` joins its parts (`~/app-v2/`, `~/my-app2`): a folder's name, seldom a password.
 */
function isDirectory(name: string | undefined, raw: string): boolean {
  if (name === undefined || !/^(?:old)?pwd$/i.test(name)) return false;
  const path = strip(raw);
  // One separator may close it (`~/Xk9mQ2aZ/`): a shell's completion adds one.
  const underHome = /^~[/\\]([^/\\]+)[/\\]?$/.exec(path);
  if (underHome?.[1] !== undefined && isMadePass(underHome[1]) && !/^[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)+$/.test(underHome[1])) return false;
  // A Windows path's separator is doubled at each JSON level (`C:\\Users\\ana` one level deep).
  return /^(?:~(?:(?:\/|\\+)[\w.@~+-]+)*[/\\]?|(?:\.{1,2}|[A-Za-z]:)?(?:(?:\/|\\+)[\w.@~+-]+){2,}[/\\]?)$/.test(path);
}

/**
 * A shell's working directory in a `;`-separated line that reads as a connection string (`PWD=/home/ana;SERVER=x;`,
 * an environment dumped on one line): a directory (isDirectory) written out in full, as a shell does, whose folders
 * read as names: none mixes letters with digits or holds `+` or `=` (base64's). So `Pwd=/a/Xk9mQ2zLw;`,
 * `Pwd=/kT9x/Qm2+Lw;` and `Pwd=~/hunter2;` beside a server are passwords. A shell names it `PWD`, in capitals, and a
 * dump lists it before `SERVER` and `UID` (in order, or as set first): named after the line's server or user
 * (`afterHost`), or spelled otherwise (`Pwd=/correct/horse;Server=db;`), it is the connection's password.
 * Risk: a password that is a path of words named first as `PWD` (`PWD=/correct/horse;SERVER=db;`) is left shown.
 */
function isShellDirectory(name: string | undefined, raw: string, afterHost: boolean): boolean {
  const path = strip(raw);
  if (afterHost || name !== 'PWD' || !isDirectory(name, raw) || path.startsWith('~')) return false;
  return path.split(/\/|\\+/).every((folder) => !/[+=]/.test(folder) && !hasLettersAndDigits(folder));
}

/**
 * A Kubernetes or Helm secret's name rather than its value (`secret: my-app-secret-name-production`,
 * `secretName: …`): under that bare key only, lower-case words joined by hyphens, one of them naming
 * what it refers to. `JWT_SECRET=my-super-secret-jwt-key` is a value, however it reads.
 */
function isSecretsName(name: string | undefined, raw: string): boolean {
  if (name === undefined || !/^secret(?:[_-]?name)?$/i.test(name)) return false;
  const value = strip(raw);
  return /^[a-z]+(?:-[a-z]+)+$/.test(value) && value.split('-').some((part) => /^(?:secrets?|tokens?|keys?|passwords?|creds|credentials?|certs?|tls)$/.test(part));
}

/**
 * A token-like literal: long enough and random enough that it is not a word or a setting. Its shape is
 * asked before whether it is code or a placeholder (isLiteralValue, a dozen patterns): most values a
 * shape offers fail on their shape (1 MB of `token: |` blocks of one letter offered 13,000).
 */
function isTokenLike(raw: string): boolean {
  const value = strip(raw);
  if (value.length < 8) return false;
  const digits = /\d/.test(value);
  const shaped = value.length < 16 ? digits && /[A-Za-z]/.test(value) : digits || (/[a-z]/.test(value) && /[A-Z]/.test(value)) || /[^A-Za-z0-9]/.test(value);
  return shaped && isLiteralValue(value) && (value.length < 16 || entropy(value) >= 3);
}

// ------------------------------------------------------------------ shapes built from a prefix

/**
 * Tokens recognised by their own shape: a vendor prefix and a fixed alphabet and length. The
 * look-around keeps a longer run of the same alphabet from matching in part.
 */
const PREFIXED: ReadonlyArray<[id: string, body: string, needs?: readonly string[]]> = [
  ['anthropic-key', String.raw`sk-ant-(?:api\d\d|admin\d\d|oat\d\d|sid\d\d)?-?[A-Za-z0-9_-]{16,}`],
  ['openai-key', String.raw`sk-(?:proj-|svcacct-|admin-|None-|lf-)?[A-Za-z0-9_-]{20,}`],
  ['stripe-key', String.raw`(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,}`],
  ['stripe-webhook-secret', String.raw`whsec_[A-Za-z0-9+/=]{24,}`],
  ['github-token', String.raw`gh[pousr]_[A-Za-z0-9]{30,}`],
  ['github-fine-grained-pat', String.raw`github_pat_[A-Za-z0-9_]{22,}`],
  ['gitlab-token', String.raw`gl(?:pat|dt|ft|ptt|rt|soat|agent|oas|imt|ffct)-[A-Za-z0-9_.-]{20,}`],
  ['gitlab-ci-job-token', String.raw`glcbt-[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20,}`],
  ['gitlab-runner-registration', String.raw`GR1348941[A-Za-z0-9_-]{20,}`],
  ['slack-token', String.raw`xox[abposer]-[A-Za-z0-9-]{10,}`],
  ['slack-config-token', String.raw`xoxe\.xox[bp]-\d-[A-Za-z0-9]{100,}`],
  ['slack-app-token', String.raw`xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+`],
  ['google-api-key', String.raw`AIza[0-9A-Za-z_-]{35}`],
  ['google-oauth-secret', String.raw`GOCSPX-[A-Za-z0-9_-]{20,}`],
  ['google-oauth-access-token', String.raw`ya29\.[A-Za-z0-9_-]{20,}`],
  ['huggingface-token', String.raw`(?:hf_|api_org_)[A-Za-z0-9]{30,}`],
  ['npm-token', String.raw`npm_[A-Za-z0-9]{36}`],
  ['pypi-token', String.raw`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{30,}`],
  ['rubygems-token', String.raw`rubygems_[a-f0-9]{48}`],
  ['nuget-key', String.raw`oy2[a-z0-9]{43}`],
  ['docker-hub-pat', String.raw`dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}`],
  ['digitalocean-token', String.raw`do[opr]_v1_[a-f0-9]{64}`],
  ['databricks-token', String.raw`dapi[a-f0-9]{32}(?:-\d)?`],
  ['doppler-token', String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}`],
  ['twilio-api-key', String.raw`SK[0-9a-fA-F]{32}`],
  ['sendgrid-key', String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{20,}`],
  ['sendinblue-key', String.raw`xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}`],
  ['mailgun-key', String.raw`(?:key|pubkey)-[a-f0-9]{32}`],
  ['mailchimp-key', String.raw`[a-f0-9]{32}-us\d{1,2}`, ['-us']],
  ['shopify-token', String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`],
  ['square-token', String.raw`(?:sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|EAAA[A-Za-z0-9_-]{60,})`],
  ['age-secret-key', String.raw`AGE-SECRET-KEY-1[0-9A-Za-z]{50,}`],
  ['linear-key', String.raw`lin_(?:api|oauth)_[A-Za-z0-9]{40}`],
  ['notion-token', String.raw`(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})`],
  ['postman-key', String.raw`PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}`],
  ['pulumi-token', String.raw`pul-[a-f0-9]{40}`],
  ['prefect-key', String.raw`pnu_[A-Za-z0-9]{36}`],
  ['readme-key', String.raw`rdme_[a-z0-9]{70}`],
  ['planetscale-token', String.raw`pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}`],
  ['sentry-token', String.raw`sntry[su]_[A-Za-z0-9+/=_]{40,}`],
  ['grafana-token', String.raw`(?:glc_[A-Za-z0-9+/]{32,}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{60,}={0,3})`],
  ['vault-token', String.raw`hv[sbr]\.[A-Za-z0-9_-]{80,}`],
  ['terraform-token', String.raw`[a-zA-Z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`, ['.atlasv1.']],
  ['heroku-key', String.raw`HRKU-AA[0-9a-zA-Z_-]{58}`],
  ['dynatrace-token', String.raw`dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}`],
  ['easypost-key', String.raw`EZ[AT]K[A-Za-z0-9]{54}`],
  ['flutterwave-key', String.raw`FLW(?:SECK|PUBK)(?:_TEST)?-[a-hA-H0-9]{12,32}(?:-X)?`],
  ['frameio-token', String.raw`fio-u-[A-Za-z0-9_=-]{64}`],
  ['duffel-token', String.raw`duffel_(?:test|live)_[A-Za-z0-9_=-]{43}`],
  ['flyio-token', String.raw`(?:fo1_[A-Za-z0-9_-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})`],
  ['artifactory-key', String.raw`(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})`],
  ['atlassian-token', String.raw`ATATT3[A-Za-z0-9_=-]{100,}`],
  ['bitbucket-app-password', String.raw`ATBB[A-Za-z0-9_=.-]{32,}`],
  ['onepassword-key', String.raw`(?:A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}|ops_eyJ[A-Za-z0-9+/]{100,}={0,3})`],
  ['adobe-secret', String.raw`p8e-[A-Za-z0-9]{32}`],
  ['alibaba-key-id', String.raw`LTAI[A-Za-z0-9]{20}`],
  ['clickhouse-key', String.raw`4b1d[A-Za-z0-9]{38}`],
  ['clojars-token', String.raw`CLOJARS_[a-z0-9]{60}`],
  ['cloudflare-origin-ca', String.raw`v1\.0-[a-f0-9]{24}-[a-f0-9]{146}`],
  ['facebook-token', String.raw`EAA[MC][A-Za-z0-9]{100,}`],
  ['harness-token', String.raw`(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}`],
  ['infracost-token', String.raw`ico-[A-Za-z0-9]{32}`],
  ['intra42-secret', String.raw`s-s4t2(?:ud|af)-[a-f0-9]{64}`],
  ['maxmind-key', String.raw`[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk`, ['_mmk']],
  ['octopus-key', String.raw`API-[A-Z0-9]{26}`],
  ['openshift-token', String.raw`sha256~[A-Za-z0-9_-]{43}`],
  ['perplexity-key', String.raw`pplx-[A-Za-z0-9]{48}`],
  ['scalingo-token', String.raw`tk-us-[A-Za-z0-9_-]{48}`],
  ['settlemint-token', String.raw`sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}`],
  ['shippo-token', String.raw`shippo_(?:live|test)_[a-fA-F0-9]{40}`],
  ['sourcegraph-token', String.raw`sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}`],
  ['typeform-token', String.raw`tfp_[A-Za-z0-9_.=-]{59}`],
  ['new-relic-key', String.raw`NR(?:AK|II|JS)-[A-Za-z0-9-]{19,32}`],
  ['azure-ad-client-secret', String.raw`[a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34}`, ['q~']],
  ['telegram-bot-token', String.raw`\d{6,12}:AA[A-Za-z0-9_-]{32,34}`, [':aa']],
  ['groq-key', String.raw`gsk_[A-Za-z0-9]{48,}`],
  ['xai-key', String.raw`xai-[A-Za-z0-9]{60,}`],
  ['replicate-token', String.raw`r8_[A-Za-z0-9]{37}`],
  ['fireworks-key', String.raw`fw_[A-Za-z0-9]{24,}`],
  ['langsmith-key', String.raw`lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}`],
  ['pinecone-key', String.raw`pcsk_[A-Za-z0-9_]{40,}`],
  ['supabase-token', String.raw`(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,})`],
  ['netlify-token', String.raw`nfp_[A-Za-z0-9]{36,}`],
  ['render-key', String.raw`rnd_[A-Za-z0-9]{32,}`],
  ['resend-key', String.raw`re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}`],
  ['figma-token', String.raw`figd_[A-Za-z0-9_-]{40,}`],
  ['airtable-pat', String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`],
  ['circleci-token', String.raw`CCIP(?:AT|RJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}`],
  ['buildkite-token', String.raw`bkua_[a-f0-9]{40}`],
  ['mapbox-secret-token', String.raw`sk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{20,}`],
  ['asana-pat', String.raw`[0-9]/[0-9]{16}:[A-Za-z0-9]{32}`],
  ['contentful-pat', String.raw`CFPAT-[A-Za-z0-9_-]{43}`],
  ['dropbox-token', String.raw`sl\.[A-Za-z0-9_=-]{130,}`],
  ['braintree-token', String.raw`access_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}`],
  ['plaid-token', String.raw`access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`],
  ['tailscale-key', String.raw`tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}`],
  ['deno-token', String.raw`dd[pw]_[A-Za-z0-9]{36}`],
  ['sonar-token', String.raw`sq[pau]_[a-f0-9]{40}`],
  ['hashicorp-cloud-key', String.raw`hcp\.[A-Za-z0-9_-]{20,}`],
  ['ngrok-token', String.raw`[0-9][A-Za-z0-9]{26}_[A-Za-z0-9]{21}`, ['_']],
  // Inside a long run of token characters each `eyJ` started a match that ran to the run's end looking
  // for a dot (44,000 characters of `eyJaaaa-` took 130-190 ms). A header of any length (an `x5c`
  // certificate chain makes one long) where a run starts; glued after `_` or `-`, one of at most 1,024.
  ['jwt', String.raw`(?:(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}|eyJ[A-Za-z0-9_-]{10,1024})\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`, ['eyj']],
];

function prefixed(id: string, body: string, given?: readonly string[]): SecretShape {
  const needs = given ?? literalStarts(body);
  return { id, pattern: new RegExp(String.raw`(?<![A-Za-z0-9])${body}(?![A-Za-z0-9])`, 'g'), ...(needs ? { needs } : {}) };
}

/**
 * What every match of `body` starts with, in lower case: its literal head (`sk-ant-`, `ya29.`), or the
 * heads of a leading group's alternatives (`(?:hf_|api_org_)`); null where a head is shorter than two
 * characters (`[a-f0-9]{32}-us…`), which is then searched whole.
 */
export function literalStarts(body: string): string[] | null {
  // Alternatives at the top: no one head starts them all.
  if (splitAlternatives(body).length > 1) return null;
  if (body.startsWith('(?:')) {
    const end = groupEnd(body, 0);
    // A group that may be left out starts nothing.
    if (end < 0 || /[?*{]/.test(body[end + 1] ?? '')) return null;
    const heads = splitAlternatives(body.slice(3, end)).map((alternative) => literalHead(alternative));
    return heads.every((h) => h.length >= 2) ? heads : null;
  }
  const head = literalHead(body);
  return head.length >= 2 ? [head] : null;
}

/** The characters a pattern starts with that stand for themselves (`\.` for a dot), in lower case. */
function literalHead(pattern: string): string {
  let head = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i]!;
    if (/[A-Za-z0-9_~-]/.test(ch) && !/[?*+{|]/.test(pattern[i + 1] ?? '')) head += ch;
    else if (ch === '\\' && /[.$/]/.test(pattern[i + 1] ?? '') && !/[?*+{|]/.test(pattern[i + 2] ?? '')) head += pattern[++i]!;
    else break;
  }
  return head.toLowerCase();
}

/** Where the group opened at `from` closes, or -1. */
function groupEnd(pattern: string, from: number): number {
  let depth = 0;
  for (let i = from; i < pattern.length; i += 1) {
    if (pattern[i] === '\\') i += 1;
    else if (pattern[i] === '[') i = classEnd(pattern, i);
    else if (pattern[i] === '(') depth += 1;
    else if (pattern[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Where the character class opened at `from` closes (its `]`, escapes and a leading `]` skipped). */
function classEnd(pattern: string, from: number): number {
  let i = from + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1;
  for (; i < pattern.length && pattern[i] !== ']'; i += 1) if (pattern[i] === '\\') i += 1;
  return i;
}

/** A group's alternatives, split at its own `|` only. */
function splitAlternatives(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < inner.length; i += 1) {
    if (inner[i] === '\\') i += 1;
    else if (inner[i] === '[') i = classEnd(inner, i);
    else if (inner[i] === '(') depth += 1;
    else if (inner[i] === ')') depth -= 1;
    else if (inner[i] === '|' && depth === 0) {
      out.push(inner.slice(from, i));
      from = i + 1;
    }
  }
  return [...out, inner.slice(from)];
}

// ------------------------------------------------------------------ shapes that need their context

/** Variables a command reads its password from, named for no password (`REDISCLI_AUTH`, `SSHPASS`); judged in upper case (isPasswordVariable). */
const PASSWORD_VARIABLE = String.raw`(?:rediscli_auth|sshpass)`;

/** Built once: built at each call, it took a fifth of redacting 1 MB of `Password: See ` (71,000 matches; backtracking.test.ts). */
const WHOLE_PASSWORD_VARIABLE = new RegExp(String.raw`^${PASSWORD_VARIABLE}$`, 'i');

/** Whether a PASSWORD_VARIABLE is the variable, in upper case: `sshpass: command not found` names the command. */
function isPasswordVariable(name: string | undefined): boolean {
  return name === undefined || !WHOLE_PASSWORD_VARIABLE.test(name) || name === name.toUpperCase();
}

/** A name that holds a password, whatever the value looks like (`DB_PASS`, `passwd`, `PGPASSWORD`). */
const PASSWORD_NAME = String.raw`(?:[A-Za-z0-9_.-]*?(?:passw(?:or)?d|passwd|passphrase|pwd|passwort|kennwort)|[A-Za-z0-9_.-]*?[_.-]pass|${PASSWORD_VARIABLE})`;
/**
 * How many pairs of backslashes past five a JSON reading may spell a quote with: a quote `d` levels deep is
 * stored after 2^d - 1 backslashes and read after two fewer from two levels (json-reading.ts readEscape):
 * 1, 5, 13, 29, …; 512 pairs reach ten levels, and keep each look-behind's run bounded.
 */
const DEEPEST = 512;
/** The backslashes before a quote in a JSON reading, at any depth: none, one (`\"`, one or two levels deep), or an odd run of five or more. */
const QUOTE_ESCAPES = String.raw`(?:\\{4}(?:\\\\){0,${DEEPEST}})?\\?`;
/** The most backslashes QUOTE_ESCAPES reads before a quote: a reader of the run before a quote walks back no further (redact.ts quoteBefore). */
export const LONGEST_QUOTE_ESCAPE = 4 + 2 * DEEPEST + 1;
/** The backslashes before a quote three or more levels deep, as a reading spells them (an odd run of five or more). */
const DEEP_RUN = String.raw`\\{5}(?:\\\\){0,${DEEPEST}}`;
/**
 * The quote a value opens with after ASSIGN (whose last backslash it may take), escaped at any depth (QUOTE_ESCAPES),
 * or none. A deeper run is read only before its quote: a look-behind that took a run without one was tried at
 * each backslash of a long run and scanned it back each time.
 */
function valueQuote(quotes: string): string {
  return String.raw`(?:\\{4}(?:\\\\){0,${DEEPEST}}${quotes}|${quotes})?`;
}
/** A name's closing quote, escaped at any depth (`password\\\\\": …` three levels deep), or none. */
const NAME_QUOTE = String.raw`(?:\\{4}(?:\\\\){0,${DEEPEST}}\\["']|\\?["']?)`;

/**
 * The assignment between a name and its value; quotes may come escaped (`\"password\": \"…\"` inside JSON text).
 * The spaces around the sign are bounded: an unbounded run was scanned back from every position of a long
 * one (20,000 spaces took 0.6 s). 32, not the prose shapes' 8: `terraform fmt` and YAML align values in a column.
 * Markdown's bold may close after the colon (`**Token:** …`) or at it (`**Token**: …`, an agent's answer), as
 * PASSWORD_ASSIGN reads a password's label.
 */
const ASSIGN = String.raw`${NAME_QUOTE}(?:[*_]{1,3}(?=:))?\s{0,32}(?:=|:=|:|=>)(?:(?<=:)[*_]{1,3})?\s{0,32}\\?`;
/**
 * ASSIGN, or an arrow between spaces (`password -> hunter2Xy!`); not `$user->password->hash`, code's member access.
 * Markdown's bold or italics (`**`, `__`, `*`, `_`, both: `***`, `_**`) may close before the colon or after it
 * (`**Password**: …`, `* **Password:** …`, `__Password:__ …`, an agent's answer); `bold` and `boldAfter` say it was
 * there (isBoldProse). The marks after the colon are the label's, not the value's (LABEL_MARKS_AFTER). A dash
 * between spaces after a closed bold label is its colon (`**Password** - Xk9mQ2zLw9`, a list's way of writing one).
 */
const PASSWORD_ASSIGN = String.raw`(?<bold>[*_]{1,3})?${NAME_QUOTE}(?:\s{0,32}(?:=|:=|:|=>)(?<boldAfter>(?<=:)[*_]{1,3})?|\s{1,32}(?<arrow>->)(?=\s)|(?<=[*_]{2})[ \t]{1,8}[-–—](?=[ \t]))\s{0,32}\\?`;
/**
 * A value that would start inside the two or three marks closing a label (`**Password:**hunter2x`, `***…:***`): the
 * value starts after them, and they stay shown. One mark may start a value (`password:*Xk9`).
 */
const LABEL_MARKS_AFTER = String.raw`(?<=:)[*_]{2}|(?<=:[*_]{1,2})[*_]`;
/** Where a name starts: not inside a longer identifier or dotted path. */
const NAME_START = String.raw`(?<![A-Za-z0-9_.-])`;
const AWS_KEY_ID = String.raw`\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{16}\b`;
const AWS_KEY_ID_STARTS = ['akia', 'asia', 'abia', 'acca', 'a3t'];
/**
 * What an assigned value follows (the end of ASSIGN or a quote), looked at first: the name's long
 * look-behind then runs only there, which takes a quarter off the assignment shapes' time and pays for
 * the prose shapes below. A label's closing bold may stand between (`**Password:**hunter2x`).
 */
const AFTER_SIGN = String.raw`(?<=[\s=:>"'\`\\„]|:[*_]{1,3})`;
/**
 * A quoted value (spaces allowed), or a bare one; a bare identifier followed by `,;)}` is code, not a value.
 * In plain quotes an escaped quote is the value's own (`"it\\"s-a-s3cret"` in JSON text); in escaped quotes
 * (JSON inside JSON, `\\"…\\"`) the next quote ends it unless more of the value follows it (NESTED_OWN_QUOTE).
 * Either may go on over a line break when no quote of any kind is inside and its first line holds more than
 * white space (in JSON text redaction reads an escaped one as the break it stands for, json-reading.ts); a
 * value read to its own kind of quote (OWN_QUOTED, NESTED_QUOTED) stays on its line. NUL ends a bare value as
 * white space does (it separates a process's arguments, `/proc/<pid>/cmdline`), and so does an ESC left
 * after the terminal codes are dropped; other control characters are a value's own (`Xk9q\x07mZ2`).
 */
const BARE_END = String.raw`\s"'\`,;)}\\\x00\x1b`;
/**
 * A bare value's character: one not in BARE_END, or a backslash with the character after it
 * (`Tz4#q\w9Lk2`, a JSON reading's `\\`) unless that is a quote or white space. A backslash before a
 * quote ends it: an escaped quote closes the string around it (`\"DB_PASSWORD=…\"`), and a span never
 * takes half an escape, so what follows stays JSON.
 */
const BARE_CHAR = bareChar(BARE_END);

/** BARE_CHAR with `ends` ending a value. */
function bareChar(ends: string): string {
  return String.raw`(?:[^${ends}]|\\[^\s"'\`\x00\x1b])`;
}
const QUOTED_CHAR = String.raw`[^"'\`\n\r\\]|\\[^\n]|''(?=[^\s"'\`,;)}\]])`;
/**
 * A single quote inside a single-quoted shell word, as the shell must spell it: the quote closed, an escaped
 * or double-quoted `'`, the quote opened again (`'s3cr'\\''et'`, `'s3cr'"'"'et'`, Python's shlex.quote). In a
 * JSON reading the backslash is doubled at each level, and the double quotes escaped (`\\"`, 5 backslashes deeper).
 */
const SHELL_QUOTE_JOIN = String.raw`'(?:\\{1,${DEEPEST}}'|\\{0,${DEEPEST}}"'\\{0,${DEEPEST}}")'`;
/**
 * A value's character inside the plain quote it opened with (`open`): any but that quote, the other kinds
 * of quote too (`PGPASSWORD='s3cr"et';`, `"password": "ab'cd"`), where QUOTED_CHAR ends at any quote and
 * left the rest of the password shown. Its own quote doubled is SQL's (`'it''s'`), as in QUOTED_CHAR.
 */
const OWN_QUOTED_CHAR = String.raw`(?!\k<open>)[^\n\r\\]|\\[^\n]|\k<open>\k<open>(?=[,;]?[^\s"'\`,;)}\]])|(?=\k<open>)${SHELL_QUOTE_JOIN}`;
/**
 * A value in the quote it opened with, closed by that quote alone, on its line: a quote closed on a later
 * line is a prompt's (`read -p "Password: " PW` and the next line's `echo "done"`), not a password's. Tried
 * before QUOTED_CHAR's reading, which still serves a value whose quote is never closed on its line, and
 * one wrapped over a line break (`password = "correct horse\n  battery"`), with no quote of any kind inside.
 */
const OWN_QUOTED = String.raw`(?<=(?<!\\)(?<open>["'\`]))(?:${OWN_QUOTED_CHAR})(?:${OWN_QUOTED_CHAR}){0,99}(?=\k<open>)`;
/**
 * A quote after an odd run of five or more backslashes, read: a JSON file three levels down spells its
 * value's own quote with seven backslashes and the quotes around the value with three, which the reading
 * makes five and one (json-reading.ts reads `\\\"` one level down, an escaped backslash as written).
 * Told apart so, it is the value's own whatever follows it: `ab",cd` three levels down hid nothing.
 */
const DEEPER_OWN_QUOTE = String.raw`(?<=(?<!\\)\\\\\\\\\\(?:\\\\)*)"`;
/**
 * A quote inside a value in escaped quotes that is the value's own: a JSON file in a JSON string spells
 * a password's quote `\\\"`, which its reading makes `\"` (json-reading.ts), as it spells the quotes
 * around the value. The value's own one is told by what follows: more of the value, where a closing
 * quote is followed by JSON's or a shell's punctuation, white space, a quote, a backslash or the end.
 * Risk: a password whose quote is followed by such a character (`ab",cd`) two levels down is cut there,
 * its rest shown: there its quote and the closing one read alike. Deeper, they differ (DEEPER_OWN_QUOTE).
 */
const NESTED_OWN_QUOTE = String.raw`(?:(?<=(?<!\\)(?:\\\\)*\\)"(?![\s,:;)}\]"'\`\\&|<>]|$)|${DEEPER_OWN_QUOTE})`;
/** A value in escaped quotes (`\"…\"`), closed by its own kind alone, on its line: the other kinds inside are its own (`\"s3cr';et\"`). */
const NESTED_QUOTED = String.raw`(?<=\\(?<nq>["'\`]))(?:[^"'\`\n]|(?!\k<nq>)["'\`]|${NESTED_OWN_QUOTE}){0,99}(?:[^"'\`\n\\]|(?!\k<nq>)["'\`])(?=\\?\k<nq>)`;
/**
 * A value in quotes after exactly five backslashes, read: a shell's `"` three JSON levels deep (seven stored,
 * DEEPER_OWN_QUOTE), closed by the same five and quote alone; the other kind inside is its own (`s3cr';et`).
 * NESTED_QUOTED's reading of it took the closing quote as the value's own and ran to the string's end.
 */
const DEEP_QUOTED = String.raw`(?<=(?<!\\)(?<dr>${DEEP_RUN})(?<dq>["']))(?:(?!\k<dr>\k<dq>)[^"'\`\n]|(?!\k<dq>)["'\`]){0,99}(?:[^"'\`\n\\]|(?!\k<dq>)["'\`])(?=\k<dr>\k<dq>)`;
/**
 * A bare value in braces, read whole: a format's placeholder (`Password={0};`, `{0:yyyy-MM-dd HH:mm}`, `{name}`)
 * is left whole, an ODBC password braced round a `;` hidden whole (isBracedSecret); read as a bare value, `{0` was
 * hidden and `}` left.
 * ODBC writes a `}` inside braces twice (`{P@ss}}w0rd}`): read as the value's own, not its end. Spaces may pad
 * the value (`{ hunter2 }`), none may split it. A quote after it, escaped at any depth, ends it: three levels
 * deep (seven backslashes before the quote) the run read as the value's own, and `{salt` was hidden, `}` left.
 */
const BRACED = String.raw`\{(?:\d{1,3}(?:,-?\d{1,4})?:[^{}\r\n"'\`\\]{1,32}|[ \t]{0,8}(?:[^{}\s"'\`\\]|\}\}){1,128}[ \t]{0,8})\}`;
const ASSIGNED_VALUE = String.raw`(?:${OWN_QUOTED}|(?<=(?<!\\)["'\`])(?![ \t]*\r?\n)(?:${QUOTED_CHAR})(?:${QUOTED_CHAR}|\r?\n){0,99}(?=["'\`])|(?<=„)[^“”\n]{1,100}(?=[“”])|${DEEP_QUOTED}|${NESTED_QUOTED}|(?<=\\["'\`])(?!\s*\n)(?:[^"'\`]|${NESTED_OWN_QUOTE}){0,99}[^"'\`\n\\](?=\\?["'\`])|(?<!["'\`])(?!„)(?:${BRACED}(?!(?!\\+["'\`])${BARE_CHAR})|[A-Za-z_$][\w$]*(?!${BARE_CHAR})(?![,;)}])|(?![A-Za-z_$][\w$]*(?!${BARE_CHAR}))${BARE_CHAR}+))`;

/**
 * A quoted "value" that starts as what follows a closing quote does (white space, `;`, `,`, a bracket, a
 * shell's operator) and holds white space: the prompt's own closing quote taken for an opening one
 * (`read -p "Password: " PW; echo 'ok'`, `printf "password: "; read x`), not a password. A password may
 * start with such a symbol (`;Xk9q!`), but seldom holds a space after it.
 */
function isAfterClosingQuote(value: string): boolean {
  return /^[\s;,)}\]|&<>]/.test(value) && /\s/.test(value);
}

/** A bare `pass:` or `pin:` value's character: any control character ends it, as a PIN's shape is judged without it. */
const PASS_CHAR = bareChar(String.raw`${BARE_END}\x01-\x08\x0e-\x1f`);

/** Credential-named settings other than passwords: the value must look like a token (`API_KEY=…`). */
const TOKEN_NAME = String.raw`[A-Za-z0-9_.-]*?(?:api[_.-]?key|apikey|access[_.-]?key|secret(?:[_.-]?key)?|token|auth[_.-]?key|credential|private[_.-]?key|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|license[_.-]?key|app[_.-]?key|client[_.-]?key|consumer[_.-]?key|webhook[_.-]?secret|access[_.-]?id|session[_.-]?key|dsn|[A-Z0-9]_KEY|[a-z0-9]_key)`;
/** Token-ish names that are not credentials: counts of model tokens, page cursors, CSRF tokens, tokenizers. */
const NOT_A_TOKEN = /(?:max|min|input|output|total|num|prompt|completion|cache|cached|reasoning|next|page|continuation|csrf|xsrf|sync|cancel|cancellation|refresh_interval|lexer)[_.-]?tokens?$|tokeni[sz]e|tokens?[_.-]?(?:in|out|count|used|limit|budget|usage|url|uri|endpoint|type|file|path|env|var|name|id|ttl|expir\w*)$|(?:cache|sort|partition|primary|foreign|public|query|route|storage|idempotency|row|map|hot|lookup|dedupe|group|unique|composite|object|bucket|index|hash|i18n|translation|react|list|item|dict|table|column|field)[_.-]?key$|secret[_.-]?(?:name|ref|arn|id|path|file|env|var|version|manager|store|provider)$/i;

/**
 * "is", "was" or "will be" between a name and its value in prose (German "ist" and "lautet" too: `das
 * Passwort lautet: …`), with at most a few spaces on each side: an unbounded run backtracked over long
 * whitespace (20,000 spaces after "token is" took 1.4 s).
 */
const VERB = String.raw`\s{1,8}(?:is|ist|lautet|was|will be)\s{0,8}:?\s{1,8}`;
/**
 * A word of time or degree between the verb and a password ("is now …", "ist immer noch …"): a closed
 * list, and each of its words is also one the value may not be, so a refused value after it cannot be
 * read again as the adverb taken for the value ("ist nun X" hid "nun" and kept X).
 */
const PROSE_ADVERB = String.raw`(?:now|still|also|only|just|jetzt|nun|noch|schon|auch|nur|immer(?:\s{1,8}noch)?|hier|weiterhin|übrigens|wie\s{1,8}folgt)`;
/**
 * VERB, then up to two adverbs ("is now also …", "lautet wie folgt: …") and perhaps a colon after them
 * ("ist nun: …"): what the prose shapes read between a password's name and its value. Bounded, so a long
 * run of adverbs is not tried every way.
 */
const VERB_ADVERB = String.raw`${VERB}(?:${PROSE_ADVERB}(?:\s{1,8}${PROSE_ADVERB})?\s{0,8}:?\s{1,8})?`;
/**
 * What a password is for, between its name and the verb ("the password for the db is …", German "das
 * Passwort für die DB ist …"): a few words, each bounded.
 */
const NAMED_FOR = String.raw`(?:\s{1,8}(?:for|to|of|on|für|zum|zur)(?:\s{1,8}(?:the|a|an|my|our|your|this|that|der|die|das|den|dem|des|ein|eine|einen|einem|mein|meine|meinen|unser|unsere|unseren))?\s{1,8}[\w.@:/-]{1,40})`;

/** A bare `pass:` value that looks made, not counted or named: letters and digits, and a symbol or both cases; no version or path. */
function isMadePass(raw: string): boolean {
  const value = strip(raw);
  if (!isLiteralValue(value) || value.length < 6 || !/[A-Za-z]/.test(value) || !/\d/.test(value)) return false;
  if (/^v?\d+(?:\.\d+)+|[/\\]/.test(value)) return false;
  return /[^\w]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value));
}

/** Letters and digits both (`Hx7mQ2zLw9`, `hunter2`): no word of a tool's message or a sentence. */
function hasLettersAndDigits(value: string): boolean {
  return /[A-Za-z]/.test(value) && /\d/.test(value);
}

/**
 * A bold label's bare value that is a word (`**Password:** See below`, `**Password:** is stored in vault`): the
 * sentence that follows the label, where a password has a digit or a symbol; or a word alone on the label's line
 * (`eol`): a status or a description as often as a password (`**Password:** Fixed`, `pending`, `TBD`), so shown unless
 * its cases look random (`**Password:** xKqmPzRt`, looksRandomCase; attack-s49, the lead's decision). A quoted one
 * (`**Password**: \`…\``) is a value whatever it is.
 * Risk: a bare password of plain letters after a bold label (`**Password:** letmein`) stays shown.
 */
function isBoldProse(value: string, groups: Record<string, string | undefined> | undefined): boolean {
  if ((groups?.bold === undefined && groups?.boldAfter === undefined) || groups.vq) return false;
  if (!/^[A-Za-z]+$/.test(value)) return false;
  return groups.eol === undefined || !looksRandomCase(value);
}

/**
 * Words as a UI writes them in double quotes after a bare `password` (`Reset password "failed"`, `"must
 * match"`): lower-case words, the first perhaps capitalised, one space or hyphen between. `hunter2`,
 * `CorrectHorseBattery` and `s3cretpass` are not. Each repeat starts with its separator: read one way only.
 */
function isPlainWords(value: string): boolean {
  return /^[A-Z]?[a-z]+(?:[ -][a-z]+)*$/.test(value);
}

/**
 * A word ends here: at a space, the text's end, or a sentence's punctuation that ends it ("is wrong!"), not inside
 * `a!Xq9`; or at the quote closing a JSON string, escaped at any depth (`{"output":"password is incorrect."}`),
 * where the same words at depth 0 were kept and in JSON hidden.
 */
const WORD_ENDS = String.raw`(?=[.,;:!?]*(?:\s|$|\\{0,${LONGEST_QUOTE_ESCAPE}}["']))`;

/** Words after "password is" that say something about it rather than give it ("is stored", "is wrong"). */
const NOT_A_PROSE_VALUE = String.raw`(?:stored|set|saved|required|incorrect|wrong|correct|the|a|an|not|now|too|still|in|on|at|being|empty|missing|invalid|valid|expired|changed|reset|hashed|encrypted|kept|managed|needed|shown|hidden|sent|same|different|case|longer|shorter|weak|strong|secure|insecure|protected|long|short|ok|fine|good|bad|visible|only|also|just|never|always|optional|mandatory|mine|yours|his|her|their|our|my|your|this|that|what|unknown|unchanged|blank|rotated|generated|random|below|above|here|there|as|like|from|for|to|of|and|or|but|so|if|when|whatever|something|nothing|used|ignored|checked|verified|validated|accepted|rejected|updated|removed|deleted|read|written|loaded|cached|configured|provided|given|entered|typed|known|see|given|exactly|at least|more|less|enabled|disabled|masked|unmasked|displayed|configurable|lowercase|uppercase|compared|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
/** The same for German ("ist abgelaufen", "ist falsch", "ist zu kurz"), as closed as the English list. */
const NOT_A_PROSE_VALUE_DE = String.raw`(?:gespeichert|gesetzt|erforderlich|nötig|falsch|richtig|korrekt|ungültig|gültig|abgelaufen|geändert|zurückgesetzt|verschlüsselt|leer|geheim|sicher|unsicher|schwach|stark|lang|kurz|zu|nicht|noch|jetzt|schon|nur|auch|immer|hier|der|die|das|ein|eine|mein|dein|sein|ihr|unser|in|im|bei|mit|für|mindestens|unbekannt|gleich|identisch|veraltet|gesperrt|gut|neu|alt|weg|da|okay|egal|wichtig|vorhanden|eingegeben|deaktiviert|aktiviert|dasselbe|anders|sehr|leider|ebenfalls|wahrscheinlich|bereits|teil|nun|weiterhin|übrigens|lange|sicherer|länger|kürzer|maskiert|pflicht|siehe|unten|oben|folgt|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf)`;
/**
 * A length rather than a value ("is now 12 characters long", "ist jetzt 12 Zeichen lang", "sixteen
 * characters"): a number, in digits or words, then the unit it counts.
 */
const PROSE_LENGTH = String.raw`(?:\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|sixty-four|sechzehn|zwanzig)(?:\s{1,8}|-)(?:characters?|chars?|digits?|letters?|Zeichen|Ziffern|Stellen|Buchstaben)`;
/** Credential names as prose says them (`API key`, `deploy token`, `client secret`); a bare `key` is too often a map's or a keyboard's. */
const PROSE_CREDENTIAL = String.raw`(?:secrets?|tokens?|credentials?|(?:api|access|secret|private|auth|signing|encryption|master|license|client|app|ssh|deploy)[ _-]?keys?)`;
const PROSE_WORD = new RegExp(String.raw`^${NOT_A_PROSE_VALUE}$`, 'i');

/** A password's names in prose (French `mot de passe` too); a quoted password may be any word, a quoted token must look like one. */
const PROSE_PASSWORD = String.raw`(?:passwords?|passphrases?|passcodes?|passwd|pwd|pins?|mots? de passe)`;

/**
 * The quoted value after "<name> is" / "was" / "will be" (`the passphrase is "correct horse …"`), without
 * its quotes, or after a colon in guillemets (`mot de passe : «…»`: guillemets are no code's quotes).
 * Each quote closes only on its own kind, so an apostrophe inside `"it's …"` ends nothing; a single
 * quote followed by a letter or digit is an apostrophe (`‘it’s’`, `“it’sS3cret!”`). A value may go on
 * over a line break, raw or escaped (a passphrase wrapped by a terminal), within the same 99 characters.
 * A password's name is captured (`pw`, `pwc`, `pwg`), so one search serves passwords and tokens.
 */
function quotedAfter(): string {
  const prefix = (group: string, sign = VERB_ADVERB) => String.raw`${NAME_START}(?:(?<${group}>${PROSE_PASSWORD})|${PROSE_CREDENTIAL})${sign}`;
  const lineBreak = String.raw`\r?\n|\\(?:r\\)?n`;
  const straight = String.raw`(?<=${prefix('pw')}\\?(["'\`]))(?:(?!\2)[^\n\\]|'(?=[A-Za-z0-9])|${lineBreak}){1,99}(?=\\?\2)`;
  const curly = String.raw`(?<=${prefix('pwc')}[“‘])(?:[^”’]|’(?=[A-Za-z0-9])){1,99}(?=[”’])`;
  const guillemets = String.raw`(?<=${prefix('pwg', String.raw`(?:${VERB}|\s{0,8}:\s{0,8})`)}[«‹])[^»›]{1,99}(?=[»›])`;
  // The quote is looked for first: the name's look-behind then runs only after a quote (half the time).
  return String.raw`(?<=["'\`“‘«‹])(?:${straight}|${curly}|${guillemets})`;
}

/** A quoted value after a password's name is one unless it is a word about it; after a token's, only a phrase or a machine-made run. */
function isQuotedCredential(value: string, groups?: Record<string, string | undefined>): boolean {
  if (!isLiteralValue(value)) return false;
  if (groups?.pw !== undefined || groups?.pwc !== undefined || groups?.pwg !== undefined) return !PROSE_WORD.test(value.trim());
  // "the token is `waiting`" names a state, not a token.
  return /\S\s+\S/.test(value) || looksMachineMade(value);
}

/**
 * A value that looks made by a machine rather than written: long hex, or a long run mixing letters and
 * digits that is no path, address, version, date or file name ("the token is valid" is prose).
 */
function looksMachineMade(raw: string): boolean {
  const value = strip(raw);
  if (/^[0-9a-f]{32,}$/i.test(value)) return true;
  if (/^(?:[~.]?\/|v?\d+\.\d+)|\/\/|\.[a-z]{1,4}$/i.test(value)) return false;
  const digits = value.replace(/\D/g, '').length;
  const letters = value.replace(/[^A-Za-z]/g, '').length;
  return value.length >= 16 && (digits >= 2 ? letters >= 4 : looksRandomCase(value)) && isTokenLike(value);
}

/**
 * Letters in both cases at random, not words joined in camel case: a random run of 24 letters and digits has fewer
 * than two digits one time in twelve (`YaZqYUxUelhkOUSTpNKrTHTC`), and was shown. A name's lower-case runs are its
 * words, three letters or more (`getClientSecretFromVault`, `XMLHttpRequestFactory`); a random run's are mostly of
 * one or two (`Ya`, `q`, `p`): three such runs, or two and words covering less than three quarters of it.
 * Risk: one in fifty such random runs reads as words and is shown (measured in attack-followups-6).
 */
function looksRandomCase(value: string): boolean {
  // One walk (it runs on each candidate of a long text): each lower-case run is counted where it ends.
  let upper = 0;
  let lower = 0;
  let run = 0;
  let capital = false;
  let shortRuns = 0;
  let inWords = 0;
  for (let i = 0; i <= value.length; i += 1) {
    const c = i < value.length ? value.charCodeAt(i) : 0;
    if (c >= 97 && c <= 122) {
      lower += 1;
      run += 1;
      continue;
    }
    if (run > 0 && run <= 2) shortRuns += 1;
    // A word: three lower-case letters or more, with the capital before them.
    else if (run > 2) inWords += run + (capital ? 1 : 0);
    run = 0;
    capital = c >= 65 && c <= 90;
    if (capital) upper += 1;
    else if (i < value.length && (c < 48 || c > 57)) return false;
  }
  return upper >= 3 && lower >= 3 && (shortRuns >= 3 || (shortRuns >= 2 && inWords < 0.75 * value.length));
}

/**
 * The quote a command's flag value opens with, if any (`-p'…'`, `--password "…"`; `\"` in a JSON string,
 * `\\\\\"` three levels deep, DEEP_QUOTED), as `q`.
 */
const FLAG_QUOTE = String.raw`(?<q>${QUOTE_ESCAPES}["'])?`;
/**
 * One character of a quoted value, a backslash always with the character it escapes: read either way (a
 * lone backslash, or a pair), a run of backslashes splits in exponentially many ways, and a value that
 * then finds no closing quote tried them all (a 460-character JSON line took minutes).
 */
const FLAG_CHAR = String.raw`(?:\\[^\n]|[^\\\n])`;
/**
 * A flag's value: inside the quote it opened with (FLAG_QUOTE), all of it to that quote, where the shell
 * reads `&`, `|`, `;` and the other kind of quote as the password's own (`-p'pa&ss'` showed `&ss`, or all),
 * and a single quote spelled as the shell must (SHELL_QUOTE_JOIN); else `bare`. With no quote opened,
 * `\k<q>` matches nothing, so `(?!\k<q>)` refuses the quoted reading at its first character.
 */
const FLAG_VALUE = (bare: string) => String.raw`(?:(?!\k<q>)${FLAG_CHAR}(?:(?!\k<q>)${FLAG_CHAR}|(?=\k<q>)${SHELL_QUOTE_JOIN}){0,99}(?=\k<q>)|${bare})`;

/*
 * Passwords given on a command's line to the command that takes them (QA 45, B2): `docker login -p`,
 * `redis-cli -a`, `sqlcmd -P`, `ldapsearch -w`, `smbclient -U user%password`, `htpasswd -b`, and what
 * echo, printf or a here-string feeds `sudo -S`, `chpasswd` or `passwd --stdin`. `-p`, `-a`, `-w` and
 * `-P` are common flags of other commands (`ls -a`, `grep -w`): each rule reads its flag only after its
 * own command on the same shell line, that is before a bare line break (a continued line goes on), `|`,
 * `;` or `&`. Their `needs` are the commands' names, so a text without them pays nothing.
 */

/** From a command to one of its flags, on the same shell line (a continuation goes on; `|`, `;`, `&` start another command). */
const SAME_LINE = String.raw`(?:[^\n|;&]|\\\r?\n){0,500}?`;
/** Before a flag: a space, or a continuation's line break. */
const FLAG_SEP = String.raw`(?:[ \t]|\\\r?\n)`;
/** Between words of one command line: spaces or tabs, or a continuation (`\\` in a JSON text's reading); never a bare line break. */
const WORD_GAP = String.raw`(?:[ \t]|\\{1,2}\r?\n){1,8}`;
/** A command's bare password: up to white space, a quote or a shell's operator; never another flag, nor a command substituted in backticks. */
const COMMAND_BARE = String.raw`[^\s"'\`|;&<>\\-][^\s"'\`|;&<>]*`;

/** Shell words that run the command after them (`sudo mysql …`, `if mysql …; then`): a name after one is still the command. */
const RUNS_NEXT = String.raw`(?:sudo|doas|env|time|nohup|exec|command|builtin|xargs|watch|nice|if|then|do|else|elif|while|until|!)`;
/**
 * Plain English words that tell to run the command after them, as a message may start (`run mysql -p…`,
 * `use curl -u …`): no command takes a command's name as its argument after these, so the name is the command.
 */
const SAYS_RUN = String.raw`(?:run|runs|ran|running|use|uses|used|using|try|tried|trying|call|calling|execute|executed|executing|type|typed|enter|entered|with|via)`;

/**
 * A package manager's command that installs, removes or describes the packages after it (`brew install sshpass`,
 * `sudo apt-get install -y sshpass`, `pip install jq sshpass`): a name among those is a package, not the command
 * run, and the words after it are no flag of that command (`brew install sshpass -p x`). Looked back for only
 * where a command's name stands; its words are no shell's operator, so `brew install sshpass && sshpass -p …` runs it.
 */
const INSTALLS = String.raw`\b(?:brew|apt|apt-get|aptitude|yum|dnf|zypper|pacman|apk|port|snap|flatpak|nix-env|pip|pip3|pipx|uv|conda|mamba|npm|pnpm|yarn|gem|cargo|go|choco|scoop|winget)(?:[ \t]{1,8}(?:pip|tool))?[ \t]{1,8}(?:install|reinstall|add|remove|uninstall|upgrade|info|show|search|-S|-Sy|-Syu)(?:[ \t]{1,8}[^\s|;&<>()\x60]{1,64}){0,8}?[ \t]{1,8}`;

/**
 * A command's name (`names`, a pattern) where it is the command run, or where prose or another tool names
 * it with its flags (`I ran mysql -p…`, `docker exec db mysql -p…`): not inside a path other than a bin
 * folder's (`find /var/lib/mysql -print`), nor a file's name (`mysql.cnf`), nor a flag's argument (`grep -r
 * mysql src/ -prune`), nor the argument of a command in lower case that starts the line (`ls mysql -pla`),
 * where the `-p…` after it is that command's option.
 */
function commandWord(names: string): string {
  // After a space, a quote, a shell's operator, NUL (a process's arguments) or a colon (`grep -n`'s `file:3:`).
  const before = String.raw`(?:^|[\s"'\`(|;&:\x00])`;
  const notArgument = String.raw`(?<!(?:^|[\n|;&(\`"'])[ \t]*(?:[$#>][ \t]{1,8})?(?!(?:${RUNS_NEXT}|${SAYS_RUN})[ \t])[a-z][\w.-]{0,64}[ \t]{1,8}(?:\S{0,200}/)?)(?<![ \t]-[^\s;|&-][^\s;|&]{0,64}[ \t]{1,8}(?:\S{0,200}/)?)`;
  return String.raw`(?:(?<=${before}(?:[\w.~-]{0,64}/){1,8}?s?bin/)|(?<=${before}))${notArgument}(?:${names})(?![\w.-])(?<!${INSTALLS}(?:${names}))`;
}

/**
 * Where a command's value may start: after a quote, or at a character a bare value starts with; never at
 * the opening quote itself, so the command's look-behind runs once per quoted flag, not twice.
 */
const VALUE_START = String.raw`(?:(?<=["'])|(?![\s"'|;&<>\\-]))`;

/** Words that follow a flag in prose ("redis-cli -a is deprecated", "sqlcmd -P or -U"), never its password. */
const FLAG_PROSE = /^(?:is|are|was|were|be|been|flag|flags|option|options|switch|argument|arguments|param|parameter|value|values|means|sets|takes|expects|asks|prompts|reads|gives|passes|works|does|did|do|doesn't|isn't|instead|then|which|who|with|without|will|would|should|can|could|may|might|must|needs?|has|have|had|it|its|you|we|they|i|by|via|plus|alone|once|twice|again)$/i;

/** A command's password as written on its line: a literal, not a placeholder or a word of prose about the flag. */
function isCommandValue(raw: string): boolean {
  const value = strip(raw);
  return isLiteralValue(value) && !PROSE_WORD.test(value) && !FLAG_PROSE.test(value);
}

/** How a flag's value follows it: after `=` or a space (`-p VALUE`), also glued (`-pVALUE`), or only glued (7-Zip's `-pVALUE`, xfreerdp's `/p:VALUE`). */
type FlagGap = 'spaced' | 'either' | 'glued';

function flagGap(gap: FlagGap): string {
  if (gap === 'glued') return '';
  return String.raw`(?:=|${WORD_GAP})${gap === 'either' ? '?' : ''}`;
}

/**
 * The value of `flag` after `command` on its line (`-p VALUE`, `-p=VALUE`, and `-pVALUE` where glued), as
 * mysql -p is read: the command first (commandWord), its first such flag's value a group. The line is read
 * once from each command's name, not scanned back 500 characters from each flag (a 100 KB line of ` -w'x`
 * after one `ldapsearch` took 0.3 s). One value per command: a command takes its password once.
 */
function commandFlag(id: string, command: string, flag: string, needs: readonly string[], gap: FlagGap = 'spaced'): SecretShape {
  return {
    id,
    pattern: new RegExp(String.raw`${commandWord(command)}${SAME_LINE}${FLAG_SEP}${flag}${flagGap(gap)}${FLAG_QUOTE}(?<value>${FLAG_VALUE(COMMAND_BARE)})`, 'g'),
    accept: isCommandValue,
    needs,
  };
}

/**
 * commandFlag for a command that takes several passwords (`keytool -storepass … -keypass …`, `ldappasswd -a
 * old -s new`): each flag's value, its command looked back for. A value's first character is looked at first
 * (after a quote, any; else not a space or a flag's dash), so the look-behind runs at few positions.
 */
function commandFlags(id: string, command: string, flag: string, needs: readonly string[], gap: FlagGap = 'spaced'): SecretShape {
  return {
    id,
    pattern: new RegExp(String.raw`${VALUE_START}(?<=${commandWord(command)}${SAME_LINE}${FLAG_SEP}${flag}${flagGap(gap)}${FLAG_QUOTE})${FLAG_VALUE(COMMAND_BARE)}`, 'g'),
    accept: isCommandValue,
    needs,
  };
}

/** `sudo`'s own options, then `-S`: a command's own `-S` after them (`sudo pacman -S vim`) reads no password. */
const SUDO_STDIN = String.raw`sudo(?:${WORD_GAP}(?:-[ugpCDhrtU]${WORD_GAP}[^\s-]\S{0,64}|-[^\s-]\S{0,31}|--[a-z][\w=-]{0,31})){0,6}?${WORD_GAP}(?:-[A-Za-z]{0,6}S[A-Za-z]{0,6}|--stdin)(?![\w.-])`;
/** A registry's login command (`docker login`, `helm registry login`). */
const REGISTRY_LOGIN = String.raw`(?:docker|podman|buildah|skopeo|nerdctl|helm${WORD_GAP}registry)${WORD_GAP}login`;
/** A command's path before its name (`/usr/sbin/chpasswd`), if any. */
const COMMAND_PATH = String.raw`(?:[\w.~-]{0,64}/){0,8}`;
/**
 * What reads a password from its input: `sudo -S`, `chpasswd` (`user:password` lines, perhaps under sudo,
 * by its path), `passwd` (`--stdin`, or fed the password twice), `docker login --password-stdin`.
 */
const STDIN_READER = String.raw`(?:${SUDO_STDIN}|(?:sudo${WORD_GAP}(?:-\S{1,32}${WORD_GAP}){0,4})?${COMMAND_PATH}(?:chpasswd|passwd)(?![\w.-])|${REGISTRY_LOGIN}${SAME_LINE}${FLAG_SEP}--password-stdin(?![\w-]))`;
/** STDIN_READER on the far side of ssh (`echo pw | ssh host sudo -S reboot`): ssh feeds it its input. */
const REMOTE_STDIN_READER = String.raw`(?:ssh(?:${WORD_GAP}[^\s|;&<>]{1,200}){1,6}?${WORD_GAP})?${STDIN_READER}`;
/** A password typed twice in quotes, a line break between (`echo -e "pw\\npw" | passwd`): in a JSON reading the break is one. */
const TWICE_QUOTED = String.raw`(?<=["'])[^\n"']{1,100}\r?\n[^\n"']{1,100}(?=\k<q>)`;
/** The user before a chpasswd line's password (`ana:`), read as such only when chpasswd reads it: sudo's password may hold a colon. */
const CHPASSWD_USER = String.raw`(?:[\w.-]{1,32}:(?=[^\n|]{0,200}\|[ \t]{0,8}(?:sudo[^\n|;&]{0,100}?)?${COMMAND_PATH}chpasswd\b))?`;

/** One `htpasswd` argument that is no flag: a file, a user, quoted or bare. */
const HTPASSWD_WORD = String.raw`(?:"[^"\n]{0,200}"|'[^'\n]{0,200}'|[^\s"'|;&<>-][^\s|;&<>]{0,200})`;
/** htpasswd's flags, one of them `-b` (the password on the line), a cost's number after `-C`. */
const HTPASSWD_FLAGS = String.raw`(?=(?:${WORD_GAP}-[A-Za-z]{1,6}(?:${WORD_GAP}\d{1,3})?){0,3}${WORD_GAP}-[A-Za-z]{0,5}b)(?:${WORD_GAP}-[A-Za-z]{1,6}(?:${WORD_GAP}\d{1,3})?){1,4}`;

/** A bare value that is no option of Windows' `net` (`/user:`, `/add`, `/persistent:no`) nor its prompt (`*`). */
const NET_BARE = String.raw`[^\s"'\`|;&<>\\/*-][^\s"'\`|;&<>]*`;

/** A connection string's key naming its server or user (ADO.NET's and ODBC's `Server=`, `Data Source=`, `Uid=`, `User Id=`). */
const CONNECTION_HOST = String.raw`(?:server|data[ \t]source|uid|user[ \t]id)`;
/** Up to 16 of a connection string's other `key=value;` parts: each ends at its `;`, its key at its `=`, so read one way only. */
const CONNECTION_PARTS = String.raw`(?:[^;\n=]{1,64}=[^;\n]{0,200};){0,16}`;

/** A line break in a YAML block, or one written out (`\n` in a string in code; JSON's is read as one). */
const YAML_BREAK = String.raw`(?:\r?\n|(?:\\r)?\\n)`;
/** A character of a YAML block's line: none that breaks it, written out or not, nor an escaped quote (a JSON string's end) or backslash. */
const YAML_CHAR = String.raw`(?:[^\\\r\n]|\\[^rn\r\n"'\\])`;
/**
 * What opens each line of a file shown with its lines numbered (Claude Code's Read: `     2→`; `cat -n`: `     2\t`)
 * or of a diff's added lines (`+`): before the YAML's own indentation, which a block's is compared by. Without it
 * the key read as inside a line (isProseBlock) and the value as `3→    Xk9…`, a line with a space in it.
 */
const LINE_MARK = String.raw`(?:[ \t]{0,8}\d{1,7}(?:→|\t)|[+-](?![+-]))`;
/** A line's mark taken whenever it is there: else a block's indentation (`\k<bi>`) was read in the next line's mark, and the block ran on. */
const LINE_MARKED = String.raw`(?:${LINE_MARK}|(?!${LINE_MARK}))`;
/**
 * The mark before a block's key: a diff's removed line (`-password: |`) only when the key follows it at once, as
 * `- password: |` is a YAML list's item (read after the indentation).
 */
const KEY_LINE_MARK = String.raw`(?:[ \t]{0,8}\d{1,7}(?:→|\t)|\+(?![+-])|-(?=[^\s+-]))`;
const KEY_LINE_MARKED = String.raw`(?:${KEY_LINE_MARK}|(?!${KEY_LINE_MARK}))`;
/** A block's line break with the next line's mark and indentation: what isBlockSecret joins its lines over. */
const BLOCK_LINE_JOIN = new RegExp(String.raw`${YAML_BREAK}${LINE_MARKED}[ \t]*`, 'g');
/**
 * A YAML block scalar (`password: |`, `>-`, `|+2`, a comment after it) and its value: the lines after it that
 * start with the first one's indentation (`bi`), blank lines between. The key, perhaps quoted (`kq`, escaped in
 * a JSON reading), starts its line or a string (after a JSON string's `"`, whose text may open with a numbered or diff line;
 * after `'` it reads as inside a line, as `'password: |\n  must be indented'` in code is prose), `ki` its
 * indentation (perhaps a list's `- ` after it), or
 * follows what no name holds (`I pasted password: |`, grep's `.env:3:`; isProseBlock). Each
 * line is read to its end and the next must open with a break: read one way only. Each line may open with a
 * mark of the file it was read from (LINE_MARK), the indentation measured after it.
 */
const YAML_BLOCK = String.raw`(?:(?<=^|\n|\\n|")${KEY_LINE_MARKED}(?<ki>[ \t]{0,64})(?:-[ \t]{1,8})?|(?<![A-Za-z0-9_.-]))(?<kq>\\{0,7}["']|)(?<name>[A-Za-z0-9_.-]{1,128})\k<kq>[ \t]{0,32}:[ \t]{1,32}[|>](?:[1-9][+-]?|[+-][1-9]?)?[ \t]{0,32}(?:#${YAML_CHAR}{0,200})?(?:${YAML_BREAK}${LINE_MARKED}[ \t]{0,64}){0,8}?${YAML_BREAK}${LINE_MARKED}(?<bi>[ \t]{1,64})(?<value>[^\s\\]${YAML_CHAR}{0,500}(?:(?:${YAML_BREAK}${LINE_MARKED}[ \t]{0,64}){0,8}?${YAML_BREAK}${LINE_MARKED}\k<bi>${YAML_CHAR}{1,500}){0,200})`;
/**
 * Whether a block after a key inside a line (`I pasted password: |`, neither a YAML line's key nor a string's
 * first word) is a value: one line that looks made (letters and digits, no space). Such a key is as often prose
 * about a pipe (`the password: |` then an indented sentence, a Markdown table's cell) as YAML pasted into a sentence.
 * Risk: a value of several lines, or of letters alone, after such a key is left shown.
 */
function isProseBlock(value: string): boolean {
  return !/\s/.test(value) && hasLettersAndDigits(value);
}
/**
 * A YAML block's marker (`password: |2`, its indentation given), perhaps with the line break after it written
 * out (`password: |\n  …` in a string in code), read as a bare value: no password. Hidden, it took the marker,
 * and the block's value was hidden apart by another shape.
 */
const WRITTEN_BLOCK_MARKER = /^[|>](?:[1-9][+-]?|[+-][1-9]?)?(?:(?:\\r)?\\n)?$/;
const WHOLE_PASSWORD_NAME = new RegExp(String.raw`^${PASSWORD_NAME}$`, 'i');
const WHOLE_TOKEN_NAME = new RegExp(String.raw`^${TOKEN_NAME}$`, 'i');

/**
 * Whether a YAML block's value under `name` is a secret: under a password's name any value said (as in prose,
 * brackets and all), under another secret's name (`api_key`, `private_key`, not `max_tokens` or `secret_name`) a token-like
 * one, its lines joined, with no space (a key's base64 lines, not `token: >` and a sentence about it); never
 * under a setting about a password (`password_policy: |`) nor a key of words (`description: |`).
 */
function isBlockSecret(name: string | undefined, value: string): boolean {
  const under = name === undefined ? 'other' : blockKeyOf(name);
  if (under === 'password') return isProseValue(value) && !isDirectory(name, value);
  if (under === 'other') return false;
  // Each later line's mark goes too (`     4→  `, `+  `): kept, the space after it read as a sentence's.
  const joined = value.replace(BLOCK_LINE_JOIN, '');
  return !/\s/.test(joined) && isTokenLike(joined);
}

/** Block keys already judged (blockKeyOf), at most BLOCK_KEYS_KEPT: a text's blocks are mostly under a few keys. */
const BLOCK_KEYS = new Map<string, 'password' | 'secret' | 'other'>();
const BLOCK_KEYS_KEPT = 256;

/**
 * What a YAML block's key says of its value (isBlockSecret): a password's, another secret's, or neither.
 * Judged once per key by its five patterns: 1 MB of `token: |` blocks asked them 13,000 times.
 */
function blockKeyOf(name: string): 'password' | 'secret' | 'other' {
  let under = BLOCK_KEYS.get(name);
  if (under === undefined) {
    if (ABOUT_A_SECRET.some((about) => about.test(name))) under = 'other';
    else if (WHOLE_PASSWORD_NAME.test(name)) under = 'password';
    else under = isSecretName(name) || (WHOLE_TOKEN_NAME.test(name) && !NOT_A_TOKEN.test(name)) ? 'secret' : 'other';
    if (BLOCK_KEYS.size >= BLOCK_KEYS_KEPT) BLOCK_KEYS.clear();
    BLOCK_KEYS.set(name, under);
  }
  return under;
}

/**
 * The types a Markdown cell names when it describes a field (`String?`, `string[]`, `Option<String>`): a language's
 * own types, perhaps qualified (`System.String?`). Another word in a type's dress (`Secret?`, `Hunter[]`) is a value.
 */
const TYPE_WORD = String.raw`(?:[A-Za-z_]\w{0,40}\.){0,4}(?:string|str|int|integer|long|short|float|double|decimal|number|num|bool|boolean|char|byte|bytes|object|any|date|datetime|uuid|guid|text|json|securestring|secretstr|secretstring|[uif](?:8|16|32|64|128))`;
/**
 * The algorithm, encoding, format or version a Markdown cell names for a secret (`| client_secret | sha256 |`, `HS256`,
 * `base64`, `OAuth2`, `v2`): letters and digits as a password has, but a column's description. A closed list.
 */
const ALGORITHM_WORD = String.raw`(?:sha-?(?:1|224|256|384|512)|sha3-?(?:224|256|384|512)|(?:hs|rs|es|ps)(?:256|384|512)|md[45]|rsa(?:-?\d{3,4})?|ed(?:25519|448)|x25519|ecdsa|hmac(?:-?sha-?(?:1|256|384|512))?|base(?:16|32|58|64)(?:url)?|utf-?(?:8|16)|hex|aes-?(?:128|192|256)(?:-?(?:gcm|cbc|ctr))?|x\.?509|pkcs#?\d{1,2}|oauth2?|jwt|jwk|jws|jwe|pem|der|bcrypt|scrypt|argon2(?:id|i|d)?|pbkdf2|crc32|totp|hotp|v\d{1,3}(?:\.\d{1,3}){0,2})`;
/**
 * What a Markdown cell after a password's name holds when it describes the password rather than gives it: a type
 * (`*string`, `&str`, `string?`, `Option<String>`, `String[]`), a flag (`-p`), a length or rule (`8-64`, `12+`,
 * `min:8`: no letter, or a validation rule's word), `N/A`, an algorithm, encoding or version (ALGORITHM_WORD).
 */
const MARKDOWN_DESCRIPTION = new RegExp(
  String.raw`^(?:(?:[*&]{1,2}|-{1,2})[A-Za-z][A-Za-z_-]*\d{0,3}|[A-Za-z][A-Za-z_.:]*<[^|\s]{1,80}>\??|${TYPE_WORD}(?:\?|\[\])|(?:min|max|size|between|digits|length|len|minlength|maxlength)[:=][\d,]{1,12}|n\/a|${ALGORITHM_WORD})$`,
  'i',
);

/**
 * A line break written out after a label (`"**Password:**\n\`\`\`\n…"` in a string in code), or its letter after the
 * backslash ASSIGN took: read as a value (`\n`, or `n` alone), it hid the break, and the fence's shape found no label.
 */
const WRITTEN_BREAK_LETTER = String.raw`(?:\\|(?<=\\))(?:r\\)?n(?![\w$])`;

/**
 * Where a label's value ends its line: only spaces, then the line's end, the text's, or a JSON string's closing
 * quote (escaped at any depth). A letters-only value alone there is the field's value; one followed by more words
 * is a sentence (`**Password:** See below`), one followed by more cells a description table's column.
 */
const LINE_END = String.raw`[ \t]{0,8}(?:\r?\n|$|\\{0,${LONGEST_QUOTE_ESCAPE}}")`;

/**
 * How far past a table cell's value the markdown-password shape looks for its row's end, to know a header row (a
 * `|---|` row under it): a header's cells are short words. Read once per candidate value (no backtracking: the run is
 * taken whole, then the break looked for), so a text dense with `|secret|…|` cells costs this many steps a cell.
 */
const HEADER_ROW_REST = 200;

/**
 * Whether a Markdown table's cell after a password's or a secret's name (the markdown-password shape) is one: a value
 * that describes nothing (MARKDOWN_DESCRIPTION), no working directory under `pwd` nor a Kubernetes secret's name under
 * `secret` (isSecretsName): letters and a digit or a symbol; digits and
 * symbols (isSymbolPassword); or letters alone whose cases look random (`xKqmPzRt`, looksRandomCase). Letters alone
 * otherwise are a status or a description as often as a password (`| Password | Fixed |`, `High`, `deprecated`,
 * `OAuth`): shown (attack-s49, the lead's decision).
 * Risk: a password of digits alone (`| password | 123456 |`) or of plain letters (`letmein`) is left shown.
 */
function isMarkdownPassword(value: string, groups?: Record<string, string | undefined>): boolean {
  const name = groups?.name ?? groups?.fenced;
  if (!isLiteralValue(value) || MARKDOWN_DESCRIPTION.test(value) || isDirectory(name, value) || isSecretsName(name, value)) return false;
  if (!/\p{L}/u.test(value)) return isSymbolPassword(value);
  if (/[^\p{L}]/u.test(value)) return true;
  return looksRandomCase(value);
}

/**
 * Whether a value of digits and symbols alone is a password rather than a number, a range, a rule or a reference: six
 * characters or more (`>=8`, `8-64`, `100%` are shorter), a digit and a symbol no number or range holds, and not an
 * issue's or a pull request's number (`#123`, `#1234567`). So `4821!!#` is one. A `_` between digits groups a number
 * (`12_345`, `555_1234`, as code writes one): no symbol.
 */
function isSymbolPassword(value: string): boolean {
  const ungrouped = value.replace(/(?<=\d)_(?=\d)/g, '');
  return value.length >= 6 && !/^#\d+$/.test(value) && /\d/.test(value) && /[^\d.,:/+\-–~^<>=%$€£()*]/.test(ungrouped);
}

/** A table's header cell that names a password's column (`Password`, `DB password`, `client_secret`), as the markdown-password shape reads a row's name. */
const PASSWORD_COLUMN = new RegExp(String.raw`^(?:[A-Za-z]{1,20}[ \t]{1,2})?(?:${PASSWORD_NAME}|[A-Za-z0-9_.-]*?secret)$`, 'i');
/**
 * A header cell that names another credential's column as prose does, in the singular (`Token`, `API key`, `Access
 * token`); a setting's name is asked of isSecretName (`GITHUB_TOKEN`, `api_key`; not `session_key`, a database's key
 * column, nor `max_tokens`). A column in the plural (`Tokens`, `Secrets`) lists counts or names as often as values.
 */
const TOKEN_COLUMN = /^(?:[A-Za-z]{1,20}[ \t]{1,2})?(?:secret|token|credential|(?:api|access|secret|private|auth|signing|encryption|master|license|client|app|deploy)[ _-]?key)$/i;
const PLURAL_COLUMN = /(?:token|secret|key|credential)s$/i;
/**
 * What a secret's column holds when it names a secret rather than gives it: an environment variable's name
 * (`DOCKERHUB_TOKEN`, a CI's table of secrets), an identifier in snake case (`npm_token`, `pw_2x`: followups-8-guards
 * keeps it shown), or words joined with no digit (`my-app-secret`).
 */
const NAMES_A_SECRET = /^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Za-z]+(?:[_.-][A-Za-z]+)+)$/;
/** Lower-case parts joined by `-` or `.`, digits and all (`db-creds-v2`, `kv-v2`): a name when namesASecret says so. */
const JOINED_NAME = /^[a-z][a-z0-9]*(?:[-.][a-z0-9]+)+$/;
/**
 * A part of a joined name: a word, a version (`v2`, `v1.3`), an ordinal written with its zero (`01`), or a dotted
 * number (`1.15.2`). Any other number (`42`, `2024`, `7x`) is how a person makes a password (`blue-dog-42`).
 */
const NAME_PART = /^(?:[a-z]+|v\d{1,3}(?:\.\d{1,4})*|0\d|\d{1,4}(?:\.\d{1,4})+)$/;

/**
 * Whether a value under a secret's, a token's or a key's header names a secret or a version rather than gives it:
 * NAMES_A_SECRET, or lower-case parts joined by `-` or `.` each a NAME_PART (`db-creds-v2`, `tls-cert-01`, `kv-v2`).
 * Words and a bare number (`pass-1234`, `winter-is-coming-99`, `color.blue.500`) are judged as a password: a shown
 * secret leaks, a hidden name costs a reader little (review of ae7eaa4).
 * Risk: a password shaped as a versioned name (`admin-pass-v1`) under such a header is left shown.
 */
function namesASecret(value: string): boolean {
  if (NAMES_A_SECRET.test(value)) return true;
  // A dot between two digits is a dotted number's own; any other `-` or `.` joins two parts.
  return JOINED_NAME.test(value) && value.split(/-|(?<!\d)\.|\.(?!\d)/).every((part) => NAME_PART.test(part));
}
/**
 * A word-like part of a path, a host or a store's reference: words of lower case (one capital first, `Documents`),
 * each with a few digits after it (`web2`, `id_ed25519`), joined by `_`, `.`, `@` or `-`. Letters and digits mixed
 * (`k9mq2zlw9`, `a8b7c6d5`) are a key's or a capability's, not a name. Each joint is one character, so a part reads
 * one way (no backtracking over `a..b`).
 */
const WORD_PART = String.raw`[A-Z]?[a-z]{0,24}\d{0,6}(?:[_.@-][A-Z]?[a-z]{0,24}\d{0,6})*`;
/**
 * Where a credential is kept rather than the credential, in a column a header naming no password gives: a URI of
 * word-like parts (`kms://alias/prod-signing-2`; a password in one, `postgres://ana:…@db`, is the URL shapes' to hide,
 * and only it; a random part or a query, `https://example.com/k9mq2z…`, is a capability URL: judged as a secret), an
 * ARN, a path of word-like parts (`~/.ssh/id_ed25519`, `/etc/ssl/private/web.key`, a store's `vault:db/creds/app`),
 * or a date's format (`YYYY-MM-DDTHH:mm:ssZ`, `%Y-%m-%d`).
 */
const KEPT_ELSEWHERE = new RegExp(
  String.raw`^(?:[a-z][a-z0-9+.-]*:\/\/(?:[^\s/@]*@)?${WORD_PART}(?::\d{1,5})?(?:\/${WORD_PART})*|arn:aws[a-z-]*:[a-z0-9-]+:[a-z0-9-]*:(?:\d{12})?:\S+|(?:~|\.{1,2})?(?:\/${WORD_PART}){2,}\/?|~(?:\/${WORD_PART})+\/?|[a-z][a-z0-9-]*:${WORD_PART}(?:\/${WORD_PART})+|(?=[^a-z]*(?:YY|DD|HH|yy|dd|hh|mm|ss))[YyMDdHhmsSTZzX:./+,' -]+|(?=[^%]*%[A-Za-z])(?:%[A-Za-z]|[-:./T ])+)$`,
);
/** A table's row break: a line break, or one written out (`\n` in a string in code), as YAML_BREAK reads it; the next one, and one just here. */
const ROW_BREAK = new RegExp(YAML_BREAK, 'g');
const ROW_BREAK_HERE = new RegExp(YAML_BREAK, 'y');
/**
 * A Markdown table's header row and the delimiter row under it (`|---|:--:|`, each cell dashes, perhaps colons): the
 * header starts a line, quotes and all (`| "User" | Password |`; a header read from a quote inside it had its columns
 * one off, and the secret's shown), and the delimiter row holds a pipe and ends its line. Each try ends at the line's
 * end, so a line is read once. A line's start may be a JSON text's (`{"output":"| User | Password |`), whose first
 * cells tableColumnSecrets leaves out; on a line longer than a header is read, the header may start a JSON string
 * (after `":"` or `[` or `,`), and holds no quote: each such try ends at the next quote.
 */
const TABLE_HEAD = String.raw`(?<head>(?:^|(?<=\n|\\n))(?:[^\\\r\n]|\\[^rn\r\n]){1,2000}?|(?<=(?:"[ \t]{0,8}:|[[,])[ \t]{0,8}\\{0,64}")(?:[^"\\\r\n]|\\[^rn"\r\n]){1,2000}?)${YAML_BREAK}(?<delimiter>[ \t]{0,8}(?:\|[ \t]{0,8})?:?-{1,64}:?[ \t]{0,8}(?:\|[ \t]{0,8}:?-{1,64}:?[ \t]{0,8}){0,63}(?:\|[ \t]{0,8})?)(?=${YAML_BREAK}|$)`;

/**
 * A table row's cells as [start, end) spans of `text` (the row from `from` to `to`), split at each pipe not escaped
 * (`\|` is a cell's own); a pipe opening or closing the row starts or ends no cell, as in GFM, so a header's and a
 * body row's columns line up whether or not they are written. The last cell ends at a quote, escaped at any depth:
 * a last row with no closing pipe in a JSON string runs on to the string's end (`| bob | Xk9…\"}`).
 */
function rowCells(text: string, from: number, to: number): Span[] {
  const cells: Span[] = [];
  let start = from;
  for (let i = from; i < to; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '|') {
      cells.push([start, i]);
      start = i + 1;
    }
  }
  let end = start;
  while (end < to && text[end] !== '"') end += 1;
  while (end > start && text[end - 1] === '\\') end -= 1;
  cells.push([start, end]);
  if (cells.length > 1 && text.slice(cells[0]![0], cells[0]![1]).trim() === '') cells.shift();
  if (cells.length > 1 && text.slice(cells[cells.length - 1]![0], cells[cells.length - 1]![1]).trim() === '') cells.pop();
  return cells;
}

/**
 * A cell's text without its spaces and its marks (`**…**`, `` `…` ``), as [start, end) of `text`; a header's `name`
 * without its colon too, inside the marks or after them (`**Password:**`, `**Password**:`).
 */
function cellContent(text: string, [from, to]: Span, name = false): Span {
  let start = from;
  let end = to;
  while (start < end && /[ \t]/.test(text[start]!)) start += 1;
  while (end > start && /[ \t]/.test(text[end - 1]!)) end -= 1;
  if (name && text[end - 1] === ':') end -= 1;
  const marks = /^(?:\*\*|__|[*_`])/.exec(text.slice(start, start + 2))?.[0];
  if (marks !== undefined && end - start > 2 * marks.length && text.slice(end - marks.length, end) === marks) {
    start += marks.length;
    end -= marks.length;
  }
  if (name && text[end - 1] === ':') end -= 1;
  return [start, end];
}

/** What a header cell says of its column: a password's, another credential's, or neither. */
function columnOf(name: string): 'password' | 'token' | undefined {
  if (PASSWORD_COLUMN.test(name)) return 'password';
  if (PLURAL_COLUMN.test(name)) return undefined;
  const named = TOKEN_COLUMN.test(name) ? !NOT_A_TOKEN.test(name.replace(/[ \t]+/g, '_')) : isSecretName(name);
  return named ? 'token' : undefined;
}

/** Words joined by underscores to a bare number of two digits or more: a person's password under a password's header. */
const WORDS_THEN_NUMBER = /^[A-Za-z]+(?:_[A-Za-z]+)*_\d{2,}$/;

/**
 * Whether a cell under a credential's header is one: one word (a cell with a space is a sentence) that names no secret
 * (NAMES_A_SECRET: letters joined, or a setting's name). Under a password's header (`Password`, not `Secret`) that
 * is all: a path, a URL or a versioned name there is what a person typed (review of ae7eaa4). Under another's, a
 * value also names none (namesASecret) nor says where one is kept (KEPT_ELSEWHERE); under a secret's name judged as a row's cell is
 * (isMarkdownPassword, so letters alone stay shown unless their cases look random), under another's as an assigned
 * token is (isTokenLike), describing nothing, and made by a machine (both cases and a digit, or as random as a key:
 * 3 bits a character) or by a person (words joined to a bare number). A header alone says less than a row that names its own secret: `release2024` is a word.
 * Risk: a password shaped as such a name (`correct-horse`, `hunter_2x`; `admin-pass-v1` under a secret's or a token's
 * header) in a column is left shown, and so is a token of lower case and digits that repeats its characters (`aaaa1111bbbb`).
 */
function isColumnSecret(value: string, column: 'password' | 'token', name: string): boolean {
  if (value === '' || /\s/.test(value)) return false;
  const typed = column === 'password' && !/secret$/i.test(name);
  // Under a password's header, words joined by underscores to a bare number (`summer_2024`, `blue_dog_42`) are what
  // a person types, not a setting's name as NAMES_A_SECRET reads them (`pw_2x`, `DOCKERHUB_TOKEN` stay names).
  if (typed && WORDS_THEN_NUMBER.test(value)) return true;
  if (NAMES_A_SECRET.test(value)) return false;
  // A password's header (not a secret's) names what a person types: a path, a URL or a versioned name there is one.
  if (typed) return isMarkdownPassword(value, { name });
  if (namesASecret(value) || KEPT_ELSEWHERE.test(value)) return false;
  if (column === 'password') return isMarkdownPassword(value, { name });
  if (!isTokenLike(value) || MARKDOWN_DESCRIPTION.test(value)) return false;
  // Words joined to a bare number (`pass-1234`) that namesASecret took for no name are a person's password.
  return JOINED_NAME.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value)) || entropy(value) >= 3;
}

/**
 * A header row's cells, without those of a JSON text the line starts with (`{"output":"| User | Password |`): GFM's
 * header has as many cells as the delimiter row under it, so a first cell past that count holding a quote is no
 * column's. A header of more cells with no quote (`| User | Password | Role |` over two) is read as written.
 */
function headerCells(text: string, match: RegExpExecArray): Span[] {
  const headEnd = match.index + (match.groups?.head?.length ?? 0);
  const end = match.index + match[0].length;
  const cells = rowCells(text, match.index, headEnd);
  const columns = rowCells(text, end - (match.groups?.delimiter?.length ?? 0), end).length;
  while (cells.length > columns && /["']/.test(text.slice(cells[0]![0], cells[0]![1]))) cells.shift();
  return cells;
}

/**
 * The cells of a Markdown table (its header and delimiter rows matched by TABLE_HEAD) under a header that names a
 * password or a credential (`| User | Password |`, `| API key |`): its rows are read to the first line with no pipe.
 * The row shape (markdown-password) reads a row that names its own secret; this reads the rows a header alone names.
 */
function tableColumnSecrets(match: RegExpExecArray, text: string): { spans: Span[]; end: number } {
  const headEnd = match.index + match[0].length;
  const columns = new Map<number, { column: 'password' | 'token'; name: string }>();
  // A delimiter row with no pipe under a header is a heading's underline or a rule (`Password\n---`), no table's.
  if (match.groups?.delimiter?.includes('|'))
    headerCells(text, match).forEach((cell, i) => {
      const [a, b] = cellContent(text, cell, true);
      const name = text.slice(a, b);
      const column = columnOf(name);
      if (column !== undefined) columns.set(i, { column, name });
    });
  if (columns.size === 0) return { spans: [], end: headEnd };
  const spans: Span[] = [];
  let end = headEnd;
  for (;;) {
    // The table ends at the text's end, or at a line with no pipe (a blank one, or the prose after it).
    ROW_BREAK_HERE.lastIndex = end;
    if (ROW_BREAK_HERE.exec(text) === null) break;
    const from = ROW_BREAK_HERE.lastIndex;
    ROW_BREAK.lastIndex = from;
    const to = ROW_BREAK.exec(text)?.index ?? text.length;
    if (!text.slice(from, to).includes('|')) break;
    const cells = rowCells(text, from, to);
    for (const [i, { column, name }] of columns) {
      const cell = cells[i];
      if (cell === undefined) continue;
      const [a, b] = cellContent(text, cell);
      if (isColumnSecret(text.slice(a, b), column, name)) spans.push([a, b]);
    }
    end = to;
  }
  return { spans, end };
}

/** A fence's language that runs what it holds (```bash, ```console, ```powershell): its paths and words are commands. */
const SHELL_FENCE = /^(?:bash|sh|shell|zsh|fish|console|terminal|shell-session|shellsession|powershell|pwsh|ps1|ps|cmd|bat|batch|dos)$/i;
/**
 * A path that runs a command rather than a password shaped as one: relative (`./`, `../`, `~/`), a script's name,
 * or under a system's or a home's folder (`/usr/local/bin/reset`, `/home/ana/…`, `/run/secrets/db`).
 */
const COMMAND_PATH_SHAPE = /^(?:(?:\.{1,2}|~)[/\\]|\/(?:bin|sbin|usr|opt|etc|var|home|users|root|tmp|srv|mnt|media|run|proc|dev|lib|lib64|snap|nix|applications|library|system|volumes|private|workspaces?|app|scripts?)(?:[/\\]|$))|[\w.-]+\.(?:sh|bash|zsh|py|rb|pl|js|mjs|ts|ps1|bat|cmd)$/i;
/**
 * Whether the value alone in a fence after a password's label (the fenced-password shape) is one: one word, judged as
 * a table's cell is (isMarkdownPassword: letters alone only when their cases look random), and no path that runs a
 * command (COMMAND_PATH_SHAPE), nor any path in a shell's fence (```sh). Several words on the line are a command or
 * its output as often as a passphrase (`Sorry, try again.`, `terraform apply`, `Stored in Vault`): shown
 * (attack-s49, the lead's decision).
 * Risk: a passphrase of plain words in a fence (`correct horse battery staple`) is left shown.
 */
function isFencedPassword(value: string, groups?: Record<string, string | undefined>): boolean {
  const lang = groups?.lang ?? '';
  if (/\s/.test(value)) return false;
  return isMarkdownPassword(value, groups) && !COMMAND_PATH_SHAPE.test(value) && !(SHELL_FENCE.test(lang) && /[/\\]/.test(value));
}

/** Commands that take a password on their line, less common than COMMAND_SHAPES' (QA 45b): each as its flag is read. */
const MORE_COMMAND_SHAPES: readonly SecretShape[] = [
  commandFlag('zip-password', 'zip|zipcloak', '-P', ['zip'], 'either'),
  // 7-Zip's `-p` takes its password glued only: `7z x -p a.7z` prompts.
  commandFlag('7z-password', '7z|7za|7zr|7zz', '-p', ['7z'], 'glued'),
  commandFlags('keytool-password', 'keytool', '-(?:store|key|srcstore|srckey|deststore|destkey|new)pass', ['keytool']),
  commandFlag('openssl-k-password', 'openssl', '-k', ['openssl']),
  commandFlag('openssl-pass-password', 'openssl', String.raw`-pass(?:in|out)?${WORD_GAP}pass:`, ['openssl'], 'glued'),
  commandFlag('mongo-password', 'mongo(?:sh|dump|restore|import|export|stat|top)?', '-p', ['mongo']),
  commandFlag('psexec-password', String.raw`psexec(?:64)?(?:\.exe)?|paexec`, '-p', ['psexec', 'paexec']),
  commandFlag('platform-login-password', String.raw`(?:oc|cf|az)${WORD_GAP}login`, '-p', ['login']),
  commandFlag('smb-tool-password', 'smbmap|crackmapexec|netexec|nxc|evil-winrm', '-p', ['smbmap', 'crackmapexec', 'netexec', 'nxc', 'evil-winrm']),
  commandFlag('rdp-password', 'xfreerdp3?|wlfreerdp|sdl-freerdp', '/p:', ['freerdp'], 'glued'),
  // `ssh-keygen -N new` and `-p -P old -N new`: a key's passphrases (`-N ''`, none, has no value).
  commandFlags('ssh-keygen-passphrase', 'ssh-keygen', '-[NP]', ['ssh-keygen']),
  {
    id: 'setx-password',
    // Windows' `setx DB_PASSWORD X [/M]` keeps a variable for good: its value is a secret where its name is one's.
    pattern: new RegExp(String.raw`\bsetx(?:${WORD_GAP}/[A-Za-z]{1,2})?${WORD_GAP}(?<name>[A-Za-z0-9_]{1,128})${WORD_GAP}${FLAG_QUOTE}(?<value>${FLAG_VALUE(COMMAND_BARE)})`, 'gi'),
    accept: (m, g) => isCommandValue(m) && isSecretName(g?.name),
    needs: ['setx'],
  },
  {
    id: 'connection-string-password',
    // ADO.NET's and ODBC's `Server=x;Uid=sa;Password=hunter2;`: in a `;`-separated list that names a server or
    // a user first, the `Password`/`Pwd` value up to `;` is one, however short or code-like (`hunter2;` read
    // as an identifier before `;` is code to password-assignment). Each part ends at its `;`, a key at its `=`:
    // read one way only.
    // A password first (`Password=hunter2;Server=db;Uid=sa;`) is read so when such a key follows it in the list.
    pattern: new RegExp(String.raw`(?:(?<host>\b${CONNECTION_HOST})[ \t]{0,8}=[^;\n]{0,200};${CONNECTION_PARTS}[ \t]{0,8}|(?<![\w.-])(?=(?:password|pwd)[ \t]{0,8}=[^;\n]{1,128};${CONNECTION_PARTS}[ \t]{0,8}${CONNECTION_HOST}[ \t]{0,8}=))(?<name>password|pwd)[ \t]{0,8}=[ \t]{0,8}(?<value>\{(?:[^{}\n]|\}\}){1,128}\}(?![^;\n"'\\])|(?:[^;\n"'\\]|\\+[^;\n"'\\rn]){1,128}(?![^;\n"'\\]))`, 'gi'),
    // A backslash, escaped at any depth, is the value's own before any character but a quote, a `;` or a written line
    // break (`Pwd=Xk9\mQ2zLw;`, `Pwd=C:\correct\horse;`): stopping at it showed the rest. A run of them is read one
    // way (the character after it is no backslash).
    // A braced value is read whole (isBracedSecret); `PWD=/home/ana;SERVER=x;` is a shell's working directory (isShellDirectory).
    accept: (m, g) => (isBraced(m) ? isBracedSecret(m) : isLiteralValue(m.trim())) && !isShellDirectory(g?.name, m, g?.host !== undefined),
    needs: ['server', 'data source', 'uid', 'user id'],
  },
  {
    id: 'dotnet-app-setting',
    // .NET's `<add key="SmtpPassword" value="X" />` (web.config, app.config): the value of a key named for a secret.
    // The quote may come escaped at any depth (a JSON string's `\"`); a backslash is read with the character after it.
    pattern: new RegExp(String.raw`<add[ \t]{1,8}key[ \t]{0,8}=[ \t]{0,8}(?<kq>${QUOTE_ESCAPES}["'])(?<name>[^"'\\\n<>]{1,128})\k<kq>[ \t]{1,8}value[ \t]{0,8}=[ \t]{0,8}\k<kq>(?<value>(?:(?!\k<kq>)${FLAG_CHAR}){1,200})(?=\k<kq>)`, 'gi'),
    accept: (m, g) => isLiteralValue(m) && isSecretName(g?.name),
    needs: ['<add'],
  },
  {
    id: 'lftp-user-password',
    // `lftp -u user,password`: as smbclient's `%`, the `,` is looked for first; the quote may open before the user or after the comma.
    pattern: new RegExp(String.raw`(?<=,(?:${QUOTE_ESCAPES}["'])?)(?<=${commandWord('lftp')}${SAME_LINE}${FLAG_SEP}(?:-u|--user)${WORD_GAP}(?:[^\s,"']{1,100},)?${FLAG_QUOTE}(?:(?<=["'])[^\s,"']{1,100},)?)${FLAG_VALUE(String.raw`[^\s"'|;&<>]+`)}`, 'g'),
    accept: isCommandValue,
    needs: ['lftp'],
  },
  {
    id: 'net-use-password',
    // Windows' `net use \\srv\share PW /user:ana` or `net use … /user:ana PW`, and `net user ana PW [/add]`.
    pattern: new RegExp(String.raw`\bnet${WORD_GAP}(?:use${WORD_GAP}(?:(?:[A-Za-z]:|\*)${WORD_GAP})?\\{2,4}[^\s"'|;&<>]{1,200}(?:${WORD_GAP}/(?!user:)[^\s"']{1,100}){0,4}|use\b[^\n|;&]{0,300}?[ \t]/user:[^\s"'|;&<>]{1,100}|user${WORD_GAP}[^\s"'|;&<>/]{1,64})${WORD_GAP}${FLAG_QUOTE}(?<value>${FLAG_VALUE(NET_BARE)})`, 'gi'),
    accept: isCommandValue,
    needs: ['net use'],
  },
  {
    id: 'powershell-secure-string',
    pattern: new RegExp(String.raw`\bConvertTo-SecureString(?:${WORD_GAP}-String)?${WORD_GAP}${FLAG_QUOTE}(?<value>${FLAG_VALUE(COMMAND_BARE)})`, 'gi'),
    accept: isCommandValue,
    needs: ['convertto-securestring'],
  },
  {
    id: 'rabbitmqctl-password',
    pattern: new RegExp(String.raw`\brabbitmqctl${WORD_GAP}(?:add_user|change_password)${WORD_GAP}${HTPASSWD_WORD}${WORD_GAP}${FLAG_QUOTE}(?<value>${FLAG_VALUE(COMMAND_BARE)})`, 'g'),
    accept: isCommandValue,
    needs: ['rabbitmqctl'],
  },
  {
    id: 'redis-auth-command',
    // `redis-cli … AUTH [user] PW`, or `AUTH …` at redis-cli's prompt (`127.0.0.1:6379>`, `cache:6379[2]>`).
    pattern: new RegExp(String.raw`(?:${commandWord('(?:redis|valkey|keydb)-cli')}${SAME_LINE}[ \t]|(?<![\w.-])[\w.-]{1,253}:\d{1,5}(?:\[\d{1,2}\])?>[ \t]{1,8})[Aa][Uu][Tt][Hh]${WORD_GAP}(?:[^\s"'|;&<>]{1,64}${WORD_GAP})?${FLAG_QUOTE}(?<value>${FLAG_VALUE(COMMAND_BARE)})`, 'g'),
    accept: isCommandValue,
    needs: ['auth'],
  },
  {
    id: 'expect-send-password',
    // An expect script's `send "PW\r"` on the line after it waits for a password prompt; `\r` ends it. The line
    // break may be written out (`\n` in a string in code).
    pattern: /(?<=\bexpect\b[^\n]{0,200}(?:assword|assphrase|PIN)[^\n]{0,100}(?:\r?\n|\\n)[ \t]{0,32}send[ \t]{1,8}(?:--[ \t]{1,8})?\\?")(?:[^"\\\n\r]|\\[^rn\n\r"])+/g,
    accept: isCommandValue,
    needs: ['send'],
  },
  {
    id: 'pgpass-line',
    // A `.pgpass` line, `host:port:database:user:password`: a port's digits, and a password with a letter (a
    // timestamp or an address is all digits), its last field. The line may start after a line break written out (`\n`).
    pattern: /(?:^|(?<=\\n))[ \t]*(?:[\w.-]{1,253}|\*):(?:\d{2,5}|\*):(?:[\w.-]{1,64}|\*):(?:[\w.@-]{1,64}|\*):(?<value>[^\s:"'\\]{1,200})(?=[\s"'\\]|$)/gm,
    accept: (m) => isCommandValue(m) && /[A-Za-z]/.test(m),
    needs: [':'],
  },
];

const COMMAND_SHAPES: readonly SecretShape[] = [
  // pflag reads `-pVALUE` as `-p VALUE`; `-p` is also the Docker CLI's `--password`.
  commandFlag('registry-login-password', REGISTRY_LOGIN, '-p', ['login'], 'either'),
  commandFlag('redis-cli-password', String.raw`(?:redis|valkey|keydb)-cli`, '-a', ['-cli']),
  commandFlag('sqlcmd-password', String.raw`(?:sqlcmd|osql|bcp)`, '-P', ['sqlcmd', 'osql', 'bcp'], 'either'),
  // ldappasswd also takes the old (`-a`) and new (`-s`) password; `-W` and `-A`/`-S` prompt.
  commandFlag('ldap-bind-password', String.raw`ldap(?:search|add|modify|delete|modrdn|compare|whoami|exop|url|passwd)`, '-w', ['ldap'], 'either'),
  commandFlags('ldappasswd-password', 'ldappasswd', '-[as]', ['ldappasswd'], 'either'),
  {
    id: 'smb-user-password',
    // `-U user%password` (`DOMAIN\user%password`): the user stays shown. The `%` is looked for first, so the line is scanned back only after one.
    // The quote may open before the user or after the `%` (`-U ana%'P W'`), as curl's after its colon.
    pattern: new RegExp(String.raw`(?<=%(?:${QUOTE_ESCAPES}["'])?)(?<=${commandWord('smbclient|rpcclient|smbcacls|smbget|smbtree|smbmap')}${SAME_LINE}${FLAG_SEP}(?:-U|--user(?:name)?)(?:=|${WORD_GAP})(?:[^\s%"']{1,100}%)?${FLAG_QUOTE}(?:(?<=["'])[^\s%"']{1,100}%)?)${FLAG_VALUE(String.raw`[^\s"'|;&<>]+`)}`, 'g'),
    accept: isCommandValue,
    needs: ['smb', 'rpcclient'],
  },
  {
    id: 'htpasswd-batch-password',
    // With -b the password is the last positional: the third (file, user, password), or the second with -n (no file).
    pattern: new RegExp(String.raw`${commandWord('htpasswd')}${HTPASSWD_FLAGS}(?:(?<=-[A-Za-z]{0,5}n[A-Za-z]{0,5}(?:${WORD_GAP}-[A-Za-z]{1,6}(?:${WORD_GAP}\d{1,3})?){0,3})|${WORD_GAP}(?<file>${HTPASSWD_WORD}))${WORD_GAP}(?<user>${HTPASSWD_WORD})${WORD_GAP}${FLAG_QUOTE}(?<value>${FLAG_VALUE(COMMAND_BARE)})`, 'g'),
    // Prose about the flag ("htpasswd -b takes the password on the command line") has a word of prose among them.
    accept: (m, g) => isCommandValue(m) && [g?.file, g?.user].every((word) => word === undefined || !(PROSE_WORD.test(word) || FLAG_PROSE.test(word))),
    needs: ['htpasswd'],
  },
  {
    id: 'stdin-password',
    // `echo 'pw' | sudo -S …`, `printf '%s\n' pw | …`, `echo 'ana:pw' | chpasswd`: the value ends the match, what reads it is looked ahead at.
    pattern: new RegExp(String.raw`\b(?:echo|printf)(?:${WORD_GAP}-[neE]{1,3})?(?:${WORD_GAP}\\?(?<f>["'])%s(?:\\{1,2}n|\r?\n)?\\?\k<f>)?${WORD_GAP}${FLAG_QUOTE}${CHPASSWD_USER}(?<value>${FLAG_VALUE(COMMAND_BARE)}|${TWICE_QUOTED})(?=(?:\\{1,2}n|\r?\n)?\k<q>?[ \t]{0,8}\|${WORD_GAP.replace('{1,8}', '{0,8}')}${REMOTE_STDIN_READER})`, 'g'),
    accept: isCommandValue,
    needs: ['sudo', 'passwd', 'password-stdin'],
  },
  {
    id: 'here-string-password',
    // `sudo -S apt update <<< 'pw'`, `chpasswd <<< 'ana:pw'`. The reader first, the value a group: the line is
    // read once from each reader, not scanned back from each `<<<` (a 100 KB line of ` <<< a` took 0.2 s).
    pattern: new RegExp(String.raw`\b${STDIN_READER}${SAME_LINE}<<<[ \t]{0,8}${FLAG_QUOTE}(?:(?<=chpasswd\b${SAME_LINE}<<<[ \t]{0,8}\\?["']?)[\w.-]{1,32}:)?(?<value>${FLAG_VALUE(COMMAND_BARE)})`, 'g'),
    accept: isCommandValue,
    needs: ['<<<'],
  },
];

/**
 * A key's name in two words as a bold label says it (`**API key:** …`, `**Secret key**: …`): no setting's name, so
 * read only after the bold marks that make it a label; the words alone are prose (`the API key: …`, credential-in-prose).
 */
const BOLD_KEY_NAME = String.raw`(?<=\*\*)(?:api|access|secret|private|auth|signing|encryption|master|license|client|app|deploy)[ \t]key`;

/*
 * Whitespace between a label's parts is bounded everywhere (8 characters; 32 around an assignment's sign;
 * 500 from a command to its flag): a look-behind is tried at every position, and an unbounded run in it
 * was scanned back from each position of a long one (20,000 spaces after `--password` took 1.6 s).
 */
export const SECRET_SHAPES: readonly SecretShape[] = [
  { id: 'pem-private-key', pattern: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)/g, needs: ['-----begin'] },
  { id: 'pem-block', pattern: /-----BEGIN (?:CERTIFICATE|OPENSSH|PGP)[A-Z ]*-----[\s\S]*?(?:-----END [A-Z ]*-----|$)/g, needs: ['-----begin'] },
  // The key's lines and the breaks between them, not the break after its last: the next line keeps its start.
  { id: 'putty-private-key', pattern: /(?<=Private-Lines:\s{0,8}\d{1,6}\s{0,8}(?:\r?\n|\\n))[A-Za-z0-9+/=]{8,}(?:(?:\r?\n|\\n)[A-Za-z0-9+/=]{8,})*/g, needs: ['private-lines:'] },
  // Before the key id's own shape: the id is the context that makes a bare 40-character string a secret.
  {
    id: 'aws-secret-near-key-id',
    // The candidate comes first so the look-arounds run only where a 40-character run stands.
    pattern: new RegExp(String.raw`(?<![A-Za-z0-9/+=])[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])(?:(?<=${AWS_KEY_ID}[\s\S]{0,200}[A-Za-z0-9/+=]{40})|(?=[\s\S]{0,200}?${AWS_KEY_ID}))`, 'g'),
    accept: (m) => /[a-z]/.test(m) && /[A-Z]/.test(m) && /[0-9/+]/.test(m),
    needs: AWS_KEY_ID_STARTS,
  },
  { id: 'aws-access-key-id', pattern: new RegExp(AWS_KEY_ID, 'g'), needs: AWS_KEY_ID_STARTS },
  { id: 'url-credentials', pattern: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+(?=@)/gi, needs: ['://'] },
  { id: 'azure-connection-secret', pattern: /(?<=\b(?:AccountKey|SharedAccessKey|SharedSecret|ClientSecret)\s{0,8}=\s{0,8})[^;\s"']+/gi, accept: isLiteralValue, needs: ['accountkey', 'sharedaccesskey', 'sharedsecret', 'clientsecret'] },
  { id: 'azure-sas-signature', pattern: /(?<=[?&]sig=)[A-Za-z0-9%+/=]{16,}/g, needs: ['sig='] },
  { id: 'webhook-url-secret', pattern: /(?<=hooks\.slack\.com\/(?:services|workflows|triggers)\/|discord(?:app)?\.com\/api\/webhooks\/\d+\/|webhook\.office\.com\/webhookb2\/)[A-Za-z0-9+/@_.-]{20,}/g, needs: ['hooks.slack.com/', 'discord', 'webhook.office.com/webhookb2/'] },
  { id: 'authorization-header', pattern: /(?<=\b(?:authorization|proxy-authorization)\s{0,8}[:=]\s{0,8}["']?(?:bearer|basic|token|digest)\s{1,8})[A-Za-z0-9._~+/=-]{8,}/gi, needs: ['authorization'] },
  { id: 'api-key-header', pattern: /(?<=\bx-(?:[a-z]+-)*(?:api-?key|auth-?token|access-?token|token|key|secret)["']?\s{0,8}:\s{0,8}["']?)[A-Za-z0-9._~+/=-]{8,}/gi, needs: ['x-'] },
  { id: 'bearer-token', pattern: /(?<=\bbearer\s{1,8})[A-Za-z0-9._~+/=-]{16,}/gi, needs: ['bearer'] },
  // A command's flags may follow it on continued lines (a backslash, then a line break): one command line, as the shell reads it.
  // The quote may open before the user or after its colon (`-u admin:'p"w'`), and the user hold the other kind (`"o'brien:…"`).
  // The colon is looked for first: the line is scanned back only after one.
  {
    id: 'curl-user',
    // The command first, its value a group (a 100 KB line of ` -u a:` after one `curl` took 0.2 s scanned back from
    // each colon). `-u` may be glued to its user (`-uana:pw`) or end combined short flags (`-su`); `-U` and
    // `--proxy-user` give the proxy's.
    pattern: new RegExp(String.raw`${commandWord('curl')}(?:[^\n]|\\\r?\n){0,500}?\s(?:-[A-Za-z]{0,6}[uU]|--user|--proxy-user)(?:\s{1,8}|=|(?=[^\s=-]))(?:[^\s:"'-][^\s:"']*:)?${FLAG_QUOTE}(?:[^\s:"'][^\s:"]*:)?(?<=:(?:${QUOTE_ESCAPES}["'])?)(?<value>${FLAG_VALUE(String.raw`[^\s"']+`)})`, 'g'),
    accept: isLiteralValue,
    needs: ['curl'],
  },
  { id: 'sshpass', pattern: new RegExp(String.raw`(?<=${commandWord('sshpass')}\s{1,8}-p\s{0,8}${FLAG_QUOTE})${FLAG_VALUE(String.raw`[^\s"']+`)}`, 'g'), accept: isCommandValue, needs: ['sshpass'] },
  {
    id: 'mysql-password-flag',
    // The command first, its value a group: the line is read from each `mysql` once, not scanned back 500
    // characters from each `-p` (a 100 KB line of ` -p'` after one `mysql` took 0.1-0.3 s).
    // The name must be the command's (commandWord): `find /var/lib/mysql -print` has none.
    pattern: new RegExp(String.raw`${commandWord('mysql|mysqldump|mysqladmin|mariadb|mariadb-dump')}(?:[^\n|;&]|\\\r?\n){0,500}?\s-p${FLAG_QUOTE}(?<value>${FLAG_VALUE(String.raw`[^\s"';|&]+`)})`, 'g'),
    accept: isLiteralValue,
    needs: ['mysql', 'mariadb'],
  },
  ...COMMAND_SHAPES,
  ...MORE_COMMAND_SHAPES,
  // `--password X`, and PowerShell's single dash (`Invoke-Sqlcmd … -Password X`, `Connect-VIServer … -Password X`).
  // Prose about the flag ("the --password flag is deprecated") is no value (isCommandValue).
  {
    id: 'password-flag',
    pattern: new RegExp(String.raw`(?<=\s(?:--(?:password|passwd|pass|passphrase|db-password|api-key|apikey|token|auth-token|secret|client-secret)|-(?:password|passphrase))(?:=|\s{1,8})${FLAG_QUOTE})${FLAG_VALUE(String.raw`[^\s"'-][^\s"']*`)}`, 'gi'),
    accept: isCommandValue,
    needs: ['--', '-pass'],
  },
  { id: 'netrc-password', pattern: /(?<=\blogin\s{1,8}\S{1,256}\s{1,8}password\s{1,8})\S+/g, needs: ['login'] },
  { id: 'xml-secret-element', pattern: /(?<=<(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret)>)[^<\s][^<]*(?=<\/)/gi, accept: isLiteralValue, needs: ['<password>', '<passwd>', '<secret>', '<token>', '<api', '<access', '<client'] },
  {
    id: 'yaml-block-secret',
    // `password: |` (or `>`, `|-`, `>+2`) and its value on the lines after, indented under it (YAML_BLOCK).
    pattern: new RegExp(YAML_BLOCK, 'g'),
    // A block is indented deeper than its key: a line as deep is the next key (`password: |` then `  user: ana`, an empty block).
    accept: (m, g) => isBlockSecret(g?.name, m) && (g?.ki !== undefined ? (g.bi ?? '').length > g.ki.length : isProseBlock(m)),
    needs: ['pass', 'pwd', 'kennwort', 'rediscli_auth', 'key', 'secret', 'token', 'credential'],
  },
  {
    id: 'password-assignment',
    // Only a quoted value starts at white space: in a run of it the name's look-behind, which reads back over up to
    // 32 of it, is not tried (1 MB of spaces after `password: |` took 230 ms, most of a redaction's). A length is no
    // value (`**Password:** 12 characters minimum`), nor a label's closing marks (LABEL_MARKS_AFTER).
    pattern: new RegExp(String.raw`${AFTER_SIGN}(?:(?<=["'\`„])|(?!\s))(?<=${NAME_START}(?<name>${PASSWORD_NAME})${PASSWORD_ASSIGN}(?<vq>${valueQuote(String.raw`["'\`„]`)}))(?!${LABEL_MARKS_AFTER}|${PROSE_LENGTH}|${WRITTEN_BREAK_LETTER})${ASSIGNED_VALUE}(?:(?<eol>(?=${LINE_END}))|)`, 'gi'),
    // After an arrow a plain word is code (`hash :: Password -> IO Digest`), not a password.
    accept: (m, g) => (!g?.vq && isBraced(m) ? isBracedSecret(m) : isLiteralValue(m)) && !WRITTEN_BLOCK_MARKER.test(m) && isPasswordVariable(g?.name) && !isDirectory(g?.name, m) && !(g?.arrow !== undefined && /^[A-Za-z_$][A-Za-z_$]*$/.test(strip(m))) && !isAfterClosingQuote(m) && !isBoldProse(m, g),
    needs: ['pass', 'pwd', 'kennwort', 'rediscli_auth'],
  },
  {
    id: 'pass-or-pin-assignment',
    // Its values are judged by their shape (`8590`, `Xk9q!2`), so a control character after one still ends it (PASS_CHAR).
    // A bare `pass:` is as often a test count (`pass: 12`) as a password, and `pin: 13` a board's pin: a
    // pass must look made (letters, digits and a symbol or both cases), a PIN is 4 to 8 digits (ISO 9564's
    // 4 to 12, as banks and phones use them; a board's pin numbers have one to three).
    pattern: new RegExp(String.raw`\b(?<![.-])(?:(?<pin>pin(?:[_-]?code)?)|pass)${ASSIGN}["'\`]?(?<value>${PASS_CHAR}{1,64})(?!${PASS_CHAR})`, 'gi'),
    accept: (m, g) => (g?.pin !== undefined ? /^\d{4,8}$/.test(m) : isMadePass(m)),
    needs: ['pass', 'pin'],
  },
  {
    id: 'sql-password',
    // `ALTER USER … PASSWORD 'it''s-s3cret'`, `IDENTIFIED BY '…'`: SQL doubles a quote inside a string, and
    // MySQL also escapes one with a backslash (`'it\'s-s3cret'`) and takes double quotes (`IDENTIFIED BY "…"`).
    // The three kinds of character exclude one another, so a value is read one way only. Also MySQL's
    // plugin form (`IDENTIFIED WITH caching_sha2_password BY '…'`, the plugin a bounded identifier), its
    // function (`SET PASSWORD = PASSWORD('…')`) and Postgres' escape string (`WITH PASSWORD E'…'`).
    pattern: /\b(?:password(?:\s{1,8}(?:e(?='))?|\s{0,8}(?:(?<fn>(?<!\.password\s{0,8})\()|\()\s{0,8})|(?<identified>identified\s{1,8}(?:with\s{1,8}[`'"]?\w{1,64}[`'"]?\s{1,8})?by\s{1,8}))(?<quote>['"])(?<value>(?:(?!\k<quote>)[^\n\\]|\k<quote>\k<quote>|\\[^\n]){1,100})(?=\k<quote>)/gi,
    // Double quotes after `PASSWORD` are no SQL string (Postgres reads an identifier there, MySQL takes
    // `IDENTIFIED BY` or `PASSWORD()`) but often a UI's (`Sign in with password "Remember me"`): there plain
    // words stay, whatever SQL-like words come before. `IDENTIFIED BY "…"` and `PASSWORD("…")` are never a
    // UI's; a method (`form.password("Remember me")`) is code, read as after a bare `password`.
    accept: (m, g) => isLiteralValue(m) && !PROSE_WORD.test(m) && (g?.quote !== '"' || g.fn !== undefined || g.identified !== undefined || !isPlainWords(m)),
    needs: ['password', 'identified'],
  },
  // Before the bare prose shape: a quoted phrase is hidden whole, and what then remains is [REDACTED].
  {
    id: 'quoted-credential-in-prose',
    pattern: new RegExp(quotedAfter(), 'gi'),
    accept: isQuotedCredential,
    needs: ['pass', 'pwd', 'pin', 'secret', 'token', 'key', 'credential'],
  },
  {
    id: 'password-in-prose',
    // The value is the whole run of non-space characters (`P@ss!word#1`), less a sentence's closing `.,;:`;
    // a quote inside it is the password's (`ab"c9!Xz`) unless punctuation follows (`…","at":` in JSON), and
    // it ends before an escaped quote's backslash.
    // A prompt answered (`Password for root: …`, `[sudo] password for ana: …`) names a user and a colon, no verb.
    // Its answer is on the prompt's line, and has letters and digits: what follows a prompt unanswered is the
    // next line (`Sorry, try again.`) or the tool's words (`Authentication failure`, `Permission denied`).
    pattern: new RegExp(String.raw`\b(?<name>password|passphrase|passcode|passwd|pwd|pw|pin|passwort|kennwort)(?:${NAMED_FOR}?${VERB_ADVERB}|\s{1,8}for\s{1,8}[\w.@-]{1,40}(?<prompt>:)[ \t]{1,8})\\?["'“‘«‹]?(?!(?:${NOT_A_PROSE_VALUE}|${NOT_A_PROSE_VALUE_DE}|${PROSE_ADVERB}|${PROSE_LENGTH})${WORD_ENDS})(?<value>[^\s"'”’«»‹›](?:(?:[^\s"'”’«»‹›]|["'”’](?=[^\s"'”’«»‹›,;:)}\]]))*[^\s"'”’«»‹›.,;:\\])?)`, 'gi'),
    accept: (m, g) => isProseValue(m) && !isDirectory(g?.name, m) && (g?.prompt === undefined || hasLettersAndDigits(m)),
    needs: ['pass', 'pw', 'pin', 'kennwort'],
  },
  {
    id: 'markdown-password',
    // A password in a Markdown table that no assignment reads: a cell that names a password or a secret and the next that
    // holds it (`| Password | Xk9mQ2zLw9 |`, the name in bold, the value in backticks), not in a header row (a `|---|` row
    // under it names columns). The name may be marked (`**`, `__`, `*`, `_` or backticks, the same on both sides), end
    // in a colon (`| Password: |`, `| **Password:** |`; each one way only) and follow one word (`| DB password |`). The
    // row's end is looked at, not taken: the value ends the match; the header row's rest, up to HEADER_ROW_REST. A value with a space is a sentence; a shell's pipes hold no such cell. Which values are
    // passwords: isMarkdownPassword. A line break written out (`| User | Password |\n|---|` in a string in code) is
    // no value: hidden, it broke the header the column shape reads.
    pattern: new RegExp(
      String.raw`(?<=\|[ \t]{0,8})(?<mark>\*\*|__|[*_\`])?(?:[A-Za-z]{1,20}[ \t]{1,2})?(?<name>${PASSWORD_NAME}|[A-Za-z0-9_.-]*?secret)(?:\k<mark>:?|:\k<mark>(?<=[*_\`]):?)[ \t]{0,8}\|[ \t]{0,8}\`?(?!(?:\\r)?\\n)(?<value>[^|\`\s]{1,200})(?=\`?[ \t]{0,8}\|(?!(?=(?<rowRest>[^\n]{0,${HEADER_ROW_REST}}))\k<rowRest>\n[ \t]{0,8}\|?[ \t]{0,8}:?-{3}))`,
      'gi',
    ),
    accept: isMarkdownPassword,
    needs: ['pass', 'pwd', 'kennwort', 'secret'],
  },
  {
    id: 'markdown-password-column',
    // A Markdown table whose header row alone names the secret's column (`| User | Password |`, `|---|---|`, then
    // `| ana | Xk9mQ2zLw9 |`): the pattern finds the header and delimiter rows, tableColumnSecrets reads the column.
    pattern: new RegExp(TABLE_HEAD, 'g'),
    cells: tableColumnSecrets,
    needs: ['pass', 'pwd', 'kennwort', 'rediscli_auth', 'secret', 'token', 'key', 'credential'],
  },
  {
    id: 'fenced-password',
    // A label (`**Password:**`, perhaps words after it: `See below`) and the value alone on the fenced block's one line
    // after it, the fence's language as `lang`; a line break may be written out (`\n` in a string in code, YAML_BREAK).
    // The fence is three backticks, four or `~~~` (`fence`); one blank line may stand before it and before its end.
    // The fence's end is looked at, not taken. Which values are: isFencedPassword.
    pattern: new RegExp(
      String.raw`${NAME_START}(?<fenced>${PASSWORD_NAME})[*_]{0,3}:[*_]{0,3}(?:[^\\\n\`]|\\[^rn\n]){0,80}${YAML_BREAK}(?:[ \t]{0,8}${YAML_BREAK})?[ \t]{0,8}(?<fence>\`{3,4}|~{3})(?<lang>[\w-]{0,20})[ \t]{0,8}${YAML_BREAK}[ \t]{0,8}(?<value>[^|\`\s\\](?:(?:[^\\\`\r\n]|\\[^rn\r\n"'\\\`]){0,198}[^\`\s\\])?)(?=[ \t]{0,8}${YAML_BREAK}(?:[ \t]{0,8}${YAML_BREAK})?[ \t]{0,8}\k<fence>)`,
      'gi',
    ),
    accept: isFencedPassword,
    needs: ['pass', 'pwd', 'kennwort'],
  },
  {
    id: 'password-named-bare',
    // `passwd hunter2Secret!`: no verb or sign between, so only a value with letters and digits counts. redis.conf's
    // `requirepass …` and `masterauth …` are read so too.
    pattern: /(?<![A-Za-z0-9_.-])(?:password|passphrase|passwd|requirepass|masterauth)\s{1,8}(?<value>[^\s"'`“”‘’<>]{7,}[^\s"'`“”‘’<>.,;:])/gi,
    accept: (m) => isTokenLike(m) && /\d/.test(m) && /[A-Za-z]/.test(m),
    needs: ['pass', 'masterauth'],
  },
  {
    id: 'credential-in-prose',
    // `API key: 9f8e…`, `the token is abcdef01…`: only a value that looks made by a machine counts, with
    // the id before it when it is a pair (`AKIA1234:9f8e…`). The value is bounded and must end its run: a
    // refused value is looked at again from its start, so `token=token=…` rescanned the rest from each name.
    // `\b`, not NAME_START, before the name: a look-behind first costs 1.7x (`max_tokens` has no `\b`; `x-auth-token:` is one).
    pattern: new RegExp(String.raw`\b${PROSE_CREDENTIAL}(?:\s{0,8}(?::=|=>|->|[:=])\s{0,8}|\s{1,8}(?:is|was|are|were|will be)\s{0,8}:?\s{1,8}|\s{1,8}(?:[-–—]\s{1,8})?)\\?["'\`“‘]?(?<value>(?:[A-Za-z0-9_+/=~.-]{1,64}:)?[A-Za-z0-9_+/=~.-]{15,512}[A-Za-z0-9_+/=~-])(?![A-Za-z0-9_+/=~-])`, 'gi'),
    accept: looksMachineMade,
    needs: ['secret', 'token', 'key', 'credential'],
  },
  ...PREFIXED.map(([id, body, needs]) => prefixed(id, body, needs)),
  {
    id: 'secret-assignment',
    pattern: new RegExp(String.raw`${AFTER_SIGN}(?!\[REDACTED\]|${FORMAT_PLACEHOLDER}|${LABEL_MARKS_AFTER})(?=[^\s"'\`,;\\]{8})(?<=${NAME_START}(?<name>${TOKEN_NAME}|${SECRET_NAME}|${BOLD_KEY_NAME})${ASSIGN}${valueQuote(String.raw`["'\`]`)})[^\s"'\`,;\\]{8,}`, 'gi'),
    // A format's placeholder is read no further (`password={0:yyyy-MM-dd HH:mm}`: its first word looked like a token).
    // A value in braces is judged as a password's is (isBracedSecret: `{0:Xk9mQ2zLw9aa}` is no format), then by what it holds.
    accept: (m, g) => (isBraced(m) ? isBracedSecret(m) && isTokenLike(m.slice(1, -1)) : isTokenLike(m)) && !isSecretsName(g?.name, m) && !isDirectory(g?.name, m),
    needs: ['key', 'secret', 'token', 'credential', 'access', 'dsn', 'passw', 'pwd', '_pass'],
  },
];

const NAMES_CREDENTIAL = new RegExp(String.raw`\b${CREDENTIAL_WORD}\b`, 'i');
const ASSIGNS_CREDENTIAL = new RegExp(String.raw`\b(?:${SECRET_NAME}|cookie|session)\s*=`, 'i');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The names the assignment shapes must not treat as credentials; exposed for the table's own test. */
export function isTokenCounterName(name: string): boolean {
  return NOT_A_TOKEN.test(name);
}

/** A [start, end) span of a text. */
export type Span = [number, number];

/** Whether a text holds a word (in lower case): the shapes' `needs` asked of one text. */
type Holds = (word: string) => boolean;

/**
 * The table's words (the shapes' `needs`) found in one walk of a text, and by each word the shapes that need
 * it: built at the first redaction, after the table. One `includes` per word of the table's 200, each answer
 * kept in a map, then a look at each of its 160 shapes, was most of the cost of redacting a conversation
 * (270 of 380 ms over 8,500 parts), and up to 10 ms a word over 1 MB whose letters are common.
 */
interface TableWords {
  finder: WordFinder;
  /** By each word's number (WordFinder.idOf), the shapes that need it, by their place in SECRET_SHAPES. */
  shapesOf: ReadonlyArray<readonly number[]>;
  /** The shapes that need no word: searched in every text. */
  always: readonly number[];
}

let tableWords: TableWords | undefined;

function theTableWords(): TableWords {
  if (tableWords) return tableWords;
  const finder = new WordFinder([...new Set(SECRET_SHAPES.flatMap((shape) => shape.needs ?? []))]);
  const shapesOf: number[][] = [];
  const always: number[] = [];
  SECRET_SHAPES.forEach((shape, i) => {
    if (shape.needs === undefined) always.push(i);
    for (const word of shape.needs ?? []) (shapesOf[finder.idOf(word)!] ??= []).push(i);
  });
  return (tableWords = { finder, shapesOf, always });
}

/**
 * The shapes, by their place in SECRET_SHAPES and in its order, that may match `lower` (a text in lower
 * case): those needing no word, and those needing a word it holds. The others are never searched in it.
 */
function shapesFor(lower: string): readonly number[] {
  const { finder, shapesOf, always } = theTableWords();
  const ids = finder.found(lower);
  if (ids.length === 0) return always;
  const places = new Set(always);
  for (const id of ids) for (const place of shapesOf[id]!) places.add(place);
  return [...places].sort((a, b) => a - b);
}

/** Which words `lower` (a text in lower case) holds: the table's words found in one walk, any other looked for alone. */
function holdsWords(lower: string): Holds {
  const { finder } = theTableWords();
  const held = new Set(finder.found(lower));
  return (word) => {
    const id = finder.idOf(word);
    return id === undefined ? lower.includes(word) : held.has(id);
  };
}

/**
 * Where `shape` finds secrets in `text`: sorted spans that never overlap, each replaced by REDACTED.
 * `holds`: whether the text holds a word, for the shape's `needs`; undefined searches it whatever it holds.
 */
function shapeSpans(text: string, shape: SecretShape, holds?: Holds): Span[] {
  const { pattern, accept, needs } = shape;
  if (needs && holds !== undefined && !needs.some(holds)) return [];
  pattern.lastIndex = 0;
  const spans: Span[] = [];
  let from = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const match = m[0];
    if (match === '') {
      pattern.lastIndex += 1;
      continue;
    }
    if (shape.cells !== undefined) {
      const { spans: found, end } = shape.cells(m, text);
      for (const span of found) {
        if (span[0] < from) continue;
        spans.push(span);
        from = span[1];
      }
      pattern.lastIndex = Math.max(pattern.lastIndex, end);
      continue;
    }
    const value = m.groups?.value;
    // Where the secret starts: the whole match, or its `value` after the label the pattern matched first.
    const at = value === undefined ? m.index : m.index + match.length - value.length;
    // The assignment shapes capture the name: a model-token counter (`max_tokens=4096`) is no secret.
    const name = m[1];
    const rejected = (accept !== undefined && !accept(value ?? match, m.groups)) || (name !== undefined && shape.id === 'secret-assignment' && NOT_A_TOKEN.test(name));
    if (rejected) {
      // A value refused may itself begin the next label ("password is password is hunter2"): look again from it.
      if (value !== undefined) pattern.lastIndex = Math.max(m.index + 1, at);
      continue;
    }
    // A value inside one already hidden (its label overlapped the last value) is hidden with it.
    if (at < from) continue;
    spans.push([at, m.index + match.length]);
    from = m.index + match.length;
    // The value hidden may itself begin the next label ("pin is pin is 4821"): look again from it.
    if (value !== undefined) pattern.lastIndex = Math.max(m.index + 1, at);
  }
  return spans;
}

/** `text` with each of `spans` (sorted, never overlapping) replaced by REDACTED. */
function replaceSpans(text: string, spans: readonly Span[]): string {
  let out = '';
  let from = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(from, start)}${REDACTED}`;
    from = end;
  }
  return out + text.slice(from);
}

function applyShape(text: string, shape: SecretShape, holds?: Holds): string {
  const spans = shapeSpans(text, shape, holds);
  return spans.length === 0 ? text : replaceSpans(text, spans);
}

/**
 * A text redacted pass after pass, knowing for each REDACTED in it the span of the original text it
 * hides: so a reader shown the original can be told where its secrets are by the same rule and passes
 * that redact it (`secrets`), never by a second rule or by lining the two texts up.
 */
export class Redaction {
  text: string;
  /** Each REDACTED in `text`, in order: where it stands in `text`, and the span of the original it hides. */
  #marks: Array<{ at: number; original: Span }> = [];
  /** Whether the text is JSON (or its reading): each span is kept inside the string it starts in (withinString). */
  readonly #json: boolean;

  constructor(original: string, json = false) {
    this.text = original;
    this.#json = json;
  }

  /**
   * Replaces `spans` of `text` (sorted, never overlapping) by REDACTED, as redaction's passes do, in one
   * walk beside the REDACTEDs already there (a text of thousands of matches is not walked per match).
   * A REDACTED a span touches (a label and its hidden value, one match) becomes part of the new one.
   */
  replace(given: readonly Span[]): void {
    if (given.length === 0) return;
    // Each rule's span on its own, before it joins a REDACTED it touches: a span run past its string's end
    // would take another rule's secret in the next string with it, and cutting the two joined would leave that one.
    let extent: number | undefined;
    const jsonEnd = () => (extent ??= jsonExtent(this.text));
    const spans = this.#json ? given.map((span) => withinString(this.text, span, jsonEnd)) : given;
    const old = this.#marks;
    const marks: Array<{ at: number; original: Span }> = [];
    let out = '';
    let from = 0;
    let m = 0;
    // The original's offset minus the text's, after the REDACTEDs walked past.
    let shift = 0;
    for (const [start, end] of spans) {
      for (; m < old.length && old[m]!.at + REDACTED.length <= start; m++) {
        marks.push({ at: old[m]!.at + out.length - from, original: old[m]!.original });
        shift = old[m]!.original[1] - (old[m]!.at + REDACTED.length);
      }
      // Inside a REDACTED, a span starts where what it hides starts, and ends where that ends.
      const originalStart = m < old.length && old[m]!.at < start ? old[m]!.original[0] : start + shift;
      let originalEnd: number | undefined;
      for (; m < old.length && old[m]!.at < end; m++) {
        if (end < old[m]!.at + REDACTED.length) originalEnd = old[m]!.original[1];
        shift = old[m]!.original[1] - (old[m]!.at + REDACTED.length);
      }
      out += this.text.slice(from, start);
      marks.push({ at: out.length, original: [originalStart, originalEnd ?? end + shift] });
      out += REDACTED;
      from = end;
    }
    for (; m < old.length; m++) marks.push({ at: old[m]!.at + out.length - from, original: old[m]!.original });
    this.text = out + this.text.slice(from);
    this.#marks = marks;
  }

  /** The spans of the original the REDACTEDs hide: sorted, touching or overlapping ones made one. */
  secrets(): Span[] {
    const out: Span[] = [];
    for (const [start, end] of this.#marks.map((m) => m.original).filter(([a, b]) => b > a)) {
      const last = out[out.length - 1];
      if (last && start <= last[1]) last[1] = Math.max(last[1], end);
      else out.push([start, end]);
    }
    return out;
  }
}

/**
 * A known value as written, and as a JSON string spells it when it holds a quote or a backslash
 * (`Xk9\"mQ2\\z`): a JSON text's reading keeps those escapes as written (json-reading.ts).
 */
function spellings(secret: string): string[] {
  const escaped = secret.replace(/["\\]/g, '\\$&');
  return escaped === secret ? [secret] : [secret, escaped];
}

/** Known values as the table finds them: each spelling's pattern, in the order they are replaced (knownPatterns). */
export type KnownPatterns = readonly RegExp[];

/**
 * The patterns of known values, longest first (a value inside a longer one is not replaced before it),
 * built once for a redactor and used for every text it redacts.
 */
export function knownPatterns(knownSecrets: readonly string[]): KnownPatterns {
  return [...new Set(knownSecrets)]
    .filter((secret) => secret !== '')
    .sort((a, b) => b.length - a.length)
    .flatMap(spellings)
    .map((spelling) => new RegExp(escapeRegExp(spelling), 'g'));
}

/** Every known value, then every secret shape, replaced in `redaction`: the table's pass. */
export function redactTable(redaction: Redaction, known: KnownPatterns = []): Redaction {
  for (const pattern of known) redaction.replace([...redaction.text.matchAll(pattern)].map((m): Span => [m.index, m.index + m[0].length]));
  // A shape none of whose words the text holds is not searched (its `needs`), as shapeSpans would skip it.
  let places = shapesFor(redaction.text.toLowerCase());
  for (let k = 0; k < places.length; k += 1) {
    const place = places[k]!;
    const spans = shapeSpans(redaction.text, SECRET_SHAPES[place]!);
    if (spans.length === 0) continue;
    redaction.replace(spans);
    // The text changed: its words are found again, and the shapes after this one chosen by them.
    places = shapesFor(redaction.text.toLowerCase());
    k = places.findIndex((p) => p > place) - 1;
    if (k < -1) break;
  }
  return redaction;
}

/**
 * A redaction of `reading`'s text (a JSON text's line breaks decoded, see jsonReading) as one of
 * `stored`, the text as written: each span hidden in the reading hidden in the stored text, whole escapes.
 */
export function inStored(stored: string, reading: JsonReading, redaction: Redaction): Redaction {
  if (reading.at === null && reading.kept === undefined) return redaction;
  const out = new Redaction(stored);
  out.replace(storedSpans(stored, reading, redaction.secrets()));
  return out;
}

/** Replaces every known value, then every secret shape, with REDACTED; in a JSON text, its line breaks read as such (jsonReading). */
export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  return redactKnown(text, knownSecrets.length === 0 ? [] : knownPatterns(knownSecrets));
}

/** redactSecrets with the known values' patterns built already (a redactor's, see knownPatterns). */
export function redactKnown(text: string, known: KnownPatterns): string {
  const reading = readingOf(text);
  return inStored(text, reading, redactTable(new Redaction(reading.text, reading.json), known)).text;
}

/** Redacts with one shape only (the table's own test checks each shape catches its samples alone). */
export function redactWithShape(text: string, id: string, { searchAll = false } = {}): string {
  const shape = SECRET_SHAPES.find((s) => s.id === id);
  return shape ? applyShape(text, shape, searchAll ? undefined : holdsWords(text.toLowerCase())) : text;
}

/** Whether `text` holds anything secret-shaped. */
export function hasSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}

/** Whether `text` talks about a credential ("the API key", "tokens"): such a line is never a durable fact or a safe id. */
export function namesCredential(text: string): boolean {
  return NAMES_CREDENTIAL.test(text) || text.includes(REDACTED);
}

/** Whether `text` assigns a value to a credential-named setting (`token=`, `password=`, `cookie=`), whatever the value. */
export function assignsCredential(text: string): boolean {
  return ASSIGNS_CREDENTIAL.test(text);
}

/** Whether a text shows a redaction (a line holding one is never chosen as a headline). */
export function showsRedaction(text: string): boolean {
  return text.includes(REDACTED);
}

const SECRET_ENV_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

/** Values of secret-looking environment variables, so a pasted key is caught whatever its shape. */
export function secretValuesFromEnv(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_ENV_NAME.test(name) && typeof value === 'string' && value.length > 8)
    .map(([, value]) => value as string);
}
