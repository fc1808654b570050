/**
 * The secret corpus: real-shaped secrets of many kinds (prefixes, lengths and alphabets from the
 * published gitleaks and secretlint rule sets, plus the shapes a hostile run got through), each set in
 * prose, code, a command line and JSON. Values come from a seeded generator, so the corpus is stable
 * and no real credential is ever written down.
 */

/** A small deterministic generator (mulberry32). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SEED = 20261201;
/**
 * Started again at each secretKinds(): the unit tier shares one module registry per worker, so a
 * generator that went on from call to call gave each test file other values, by the order files ran in.
 */
let next = generator(SEED);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}_-`;
const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/** A random string over `alphabet`, with at least one digit and one letter when the alphabet has both. */
function rand(alphabet: string, n: number): string {
  for (;;) {
    let out = '';
    for (let i = 0; i < n; i += 1) out += alphabet[Math.floor(next() * alphabet.length)];
    const wantsDigit = /\d/.test(alphabet) && /[A-Za-z]/.test(alphabet) && n >= 8;
    if (!wantsDigit || (/\d/.test(out) && /[A-Za-z]/.test(out))) return out;
  }
}
const an = (n: number) => rand(ALNUM, n);
const hex = (n: number) => rand(HEX, n);
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
/** A human password: letters, digits and a symbol, 8 to 14 characters. */
const password = () => `${rand('abcdefghjkmnpqrstuvwxyz', 4)}${rand(DIGITS, 2)}${rand('!@#%^&*', 1)}${rand(ALNUM, 1 + Math.floor(next() * 6))}`;

export interface SecretKind {
  /** What kind of secret this is (a vendor's token, a password in a connection string …). */
  kind: string;
  /** The text that carries the secret, as it would appear on its own. */
  snippet: string;
  /** Every part that must not survive redaction. */
  secrets: string[];
}

function token(kind: string, value: string): SecretKind {
  return { kind, snippet: value, secrets: [value] };
}

function assigned(kind: string, name: string, value: string): SecretKind {
  return { kind, snippet: `${name}=${value}`, secrets: [value] };
}

function contextual(kind: string, make: (v: string) => string, value: string): SecretKind {
  return { kind, snippet: make(value), secrets: [value] };
}

function pem(label: string): SecretKind {
  const body = Array.from({ length: 6 }, () => rand(B64, 64)).join('\n');
  return { kind: `pem ${label}`, snippet: `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`, secrets: body.split('\n') };
}

export function secretKinds(): SecretKind[] {
  next = generator(SEED);
  const kinds: SecretKind[] = [
    // Model providers.
    token('anthropic api key', `sk-ant-api03-${rand(URLSAFE, 93)}AA`),
    token('anthropic admin key', `sk-ant-admin01-${rand(URLSAFE, 93)}AA`),
    token('openai project key', `sk-proj-${rand(URLSAFE, 74)}T3BlbkFJ${rand(URLSAFE, 74)}`),
    token('openai legacy key', `sk-${an(20)}T3BlbkFJ${an(20)}`),
    token('openai service account key', `sk-svcacct-${rand(URLSAFE, 58)}T3BlbkFJ${rand(URLSAFE, 58)}`),
    token('groq key', `gsk_${an(52)}`),
    token('xai key', `xai-${an(80)}`),
    token('replicate token', `r8_${an(37)}`),
    token('perplexity key', `pplx-${an(48)}`),
    token('fireworks key', `fw_${an(24)}`),
    token('langsmith key', `lsv2_pt_${hex(32)}_${hex(10)}`),
    token('langfuse secret key', `sk-lf-${uuid()}`),
    token('huggingface token', `hf_${rand('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 34)}`),
    token('huggingface org token', `api_org_${rand('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 34)}`),
    token('pinecone key', `pcsk_${an(6)}_${an(60)}`),
    assigned('cohere key', 'CO_API_KEY', an(40)),
    assigned('mistral key', 'MISTRAL_API_KEY', an(32)),
    assigned('together key', 'TOGETHER_API_KEY', hex(64)),
    // Source forges and CI.
    token('github pat', `ghp_${an(36)}`),
    token('github oauth token', `gho_${an(36)}`),
    token('github user-to-server token', `ghu_${an(36)}`),
    token('github server-to-server token', `ghs_${an(36)}`),
    token('github refresh token', `ghr_${an(36)}`),
    token('github fine-grained pat', `github_pat_11${rand(UPPER_ALNUM, 20)}_${an(59)}`),
    token('gitlab pat', `glpat-${rand(URLSAFE, 20)}`),
    token('gitlab deploy token', `gldt-${rand(URLSAFE, 20)}`),
    token('gitlab feed token', `glft-${rand(URLSAFE, 20)}`),
    token('gitlab pipeline trigger token', `glptt-${hex(40)}`),
    token('gitlab runner token', `glrt-${rand(URLSAFE, 20)}`),
    token('gitlab scim token', `glsoat-${rand(URLSAFE, 20)}`),
    token('gitlab agent token', `glagent-${rand(URLSAFE, 50)}`),
    token('gitlab oauth secret', `gloas-${rand(URLSAFE, 64)}`),
    token('gitlab incoming mail token', `glimt-${rand(URLSAFE, 25)}`),
    token('gitlab feature flag token', `glffct-${rand(URLSAFE, 20)}`),
    token('gitlab ci job token', `glcbt-${an(3)}_${rand(URLSAFE, 20)}`),
    token('gitlab runner registration token', `GR1348941${rand(URLSAFE, 20)}`),
    token('bitbucket app password', `ATBB${an(32)}${hex(8)}`),
    token('atlassian api token', `ATATT3${rand(URLSAFE, 186)}`),
    token('circleci pat', `CCIPAT_${an(22)}_${hex(40)}`),
    token('buildkite token', `bkua_${hex(40)}`),
    token('sonarqube token', `squ_${hex(40)}`),
    assigned('sonar login', 'SONAR_TOKEN', hex(40)),
    assigned('travis token', 'TRAVIS_API_TOKEN', rand(LOWER_ALNUM, 22)),
    assigned('droneci token', 'DRONE_TOKEN', rand(LOWER_ALNUM, 32)),
    assigned('codecov token', 'CODECOV_TOKEN', uuid()),
    assigned('gitea token', 'GITEA_TOKEN', hex(40)),
    assigned('gitcode token', 'GITCODE_TOKEN', an(24)),
    token('sourcegraph token', `sgp_${hex(16)}_${hex(40)}`),
    // Package registries.
    token('npm token', `npm_${an(36)}`),
    token('pypi token', `pypi-AgEIcHlwaS5vcmc${rand(URLSAFE, 70)}`),
    token('rubygems token', `rubygems_${hex(48)}`),
    token('nuget key', `oy2${rand(LOWER_ALNUM, 43)}`),
    token('clojars token', `CLOJARS_${rand(LOWER_ALNUM, 60)}`),
    token('docker hub pat', `dckr_pat_${rand(URLSAFE, 27)}`),
    token('artifactory api key', `AKCp${an(69)}`),
    token('artifactory reference token', `cmVmd${an(59)}`),
    token('deno deploy token', `ddp_${an(36)}`),
    // Clouds.
    { kind: 'aws key pair', snippet: `AKIA${rand(UPPER_ALNUM, 16)} ${rand(B64, 39)}Q`, secrets: [] },
    token('aws access key id', `AKIA${rand(UPPER_ALNUM, 16)}`),
    token('aws temporary key id', `ASIA${rand(UPPER_ALNUM, 16)}`),
    assigned('aws secret access key', 'aws_secret_access_key', rand(B64, 40)),
    assigned('aws session token', 'AWS_SESSION_TOKEN', rand(B64, 120)),
    contextual('azure storage account key', (v) => `DefaultEndpointsProtocol=https;AccountName=stewardstore;AccountKey=${v};EndpointSuffix=core.windows.net`, `${rand(B64, 86)}==`),
    contextual('azure service bus key', (v) => `Endpoint=sb://steward.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${v}`, `${rand(B64, 43)}=`),
    contextual('azure sas signature', (v) => `https://stewardstore.blob.core.windows.net/c/f.txt?sv=2024-11-04&ss=b&srt=o&sp=r&se=2026-12-31&sig=${v}`, `${rand(ALNUM, 40)}%3D`),
    token('azure ad client secret', `${an(3)}8Q~${rand(`${ALNUM}_~.-`, 34)}`),
    token('google api key', `AIza${rand(URLSAFE, 35)}`),
    token('google oauth client secret', `GOCSPX-${rand(URLSAFE, 28)}`),
    token('google oauth access token', `ya29.${rand(URLSAFE, 120)}`),
    pem('PRIVATE KEY'),
    pem('RSA PRIVATE KEY'),
    pem('EC PRIVATE KEY'),
    pem('OPENSSH PRIVATE KEY'),
    pem('ENCRYPTED PRIVATE KEY'),
    pem('DSA PRIVATE KEY'),
    pem('PGP PRIVATE KEY BLOCK'),
    { kind: 'gcp service account json', ...((body) => ({ snippet: `"private_key": "-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----\\n"`, secrets: [body] }))(rand(B64, 120)) },
    token('alibaba access key id', `LTAI${an(20)}`),
    assigned('alibaba secret', 'ALIBABA_CLOUD_ACCESS_KEY_SECRET', rand(LOWER_ALNUM, 30)),
    token('digitalocean pat', `dop_v1_${hex(64)}`),
    token('digitalocean oauth token', `doo_v1_${hex(64)}`),
    token('digitalocean refresh token', `dor_v1_${hex(64)}`),
    token('heroku api key v2', `HRKU-AA${rand(URLSAFE, 58)}`),
    assigned('heroku api key', 'HEROKU_API_KEY', uuid()),
    token('flyio token', `fo1_${rand(URLSAFE, 43)}`),
    token('flyio macaroon', `fm2_${rand(B64, 120)}==`),
    token('cloudflare origin ca key', `v1.0-${hex(24)}-${hex(146)}`),
    assigned('cloudflare api token', 'CLOUDFLARE_API_TOKEN', rand(URLSAFE, 40)),
    assigned('cloudflare global key', 'CLOUDFLARE_API_KEY', hex(37)),
    token('vault service token', `hvs.${rand(URLSAFE, 96)}`),
    token('vault batch token', `hvb.${rand(URLSAFE, 140)}`),
    token('terraform cloud token', `${an(14)}.atlasv1.${rand(URLSAFE, 67)}`),
    token('hashicorp cloud key', `hcp.${rand(URLSAFE, 40)}`),
    token('openshift token', `sha256~${rand(URLSAFE, 43)}`),
    token('scalingo token', `tk-us-${rand(URLSAFE, 48)}`),
    token('netlify token', `nfp_${an(40)}`),
    assigned('netlify auth token', 'NETLIFY_AUTH_TOKEN', rand(URLSAFE, 43)),
    token('render key', `rnd_${an(32)}`),
    assigned('vercel token', 'VERCEL_TOKEN', an(24)),
    token('supabase management token', `sbp_${hex(40)}`),
    token('supabase secret key', `sb_secret_${rand(URLSAFE, 31)}`),
    token('planetscale token', `pscale_tkn_${rand(URLSAFE, 43)}`),
    token('planetscale password', `pscale_pw_${rand(URLSAFE, 43)}`),
    token('tailscale auth key', `tskey-auth-${an(12)}-${an(30)}`),
    token('databricks token', `dapi${hex(32)}`),
    token('pulumi token', `pul-${hex(40)}`),
    token('doppler personal token', `dp.pt.${an(43)}`),
    token('doppler service token', `dp.st.dev.${an(40)}`.replace('.dev', '')),
    token('age secret key', `AGE-SECRET-KEY-1${rand('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`),
    token('onepassword secret key', `A3-${rand(UPPER_ALNUM, 6)}-${rand(UPPER_ALNUM, 11)}-${rand(UPPER_ALNUM, 5)}-${rand(UPPER_ALNUM, 5)}-${rand(UPPER_ALNUM, 5)}`),
    token('onepassword service account token', `ops_eyJ${rand(B64, 260)}`),
    token('infracost token', `ico-${an(32)}`),
    token('prefect key', `pnu_${an(36)}`),
    // Payments and commerce.
    token('stripe live secret key', `sk_live_${an(99)}`),
    token('stripe test secret key', `sk_test_${an(24)}`),
    token('stripe live restricted key', `rk_live_${an(24)}`),
    token('stripe test restricted key', `rk_test_${an(99)}`),
    token('stripe webhook secret', `whsec_${an(32)}`),
    token('square access token', `sq0atp-${rand(URLSAFE, 22)}`),
    token('square oauth secret', `sq0csp-${rand(URLSAFE, 43)}`),
    token('shopify access token', `shpat_${hex(32)}`),
    token('shopify custom app token', `shpca_${hex(32)}`),
    token('shopify private app token', `shppa_${hex(32)}`),
    token('shopify shared secret', `shpss_${hex(32)}`),
    token('flutterwave secret key', `FLWSECK_TEST-${hex(32)}-X`),
    token('braintree token', `access_token$production$${rand(LOWER_ALNUM, 16)}$${hex(32)}`),
    token('plaid access token', `access-production-${uuid()}`),
    assigned('plaid secret', 'PLAID_SECRET', rand(LOWER_ALNUM, 30)),
    token('shippo token', `shippo_live_${hex(40)}`),
    token('easypost key', `EZAK${an(54)}`),
    token('easypost test key', `EZTK${an(54)}`),
    token('duffel token', `duffel_live_${rand(URLSAFE, 43)}`),
    assigned('paypal client secret', 'PAYPAL_CLIENT_SECRET', rand(URLSAFE, 80)),
    assigned('coinbase token', 'COINBASE_ACCESS_TOKEN', rand(URLSAFE, 64)),
    assigned('kraken token', 'KRAKEN_API_SECRET', rand(B64, 88)),
    // Messaging, mail, observability.
    token('slack bot token', `xoxb-${rand(DIGITS, 12)}-${rand(DIGITS, 13)}-${an(24)}`),
    token('slack user token', `xoxp-${rand(DIGITS, 12)}-${rand(DIGITS, 12)}-${rand(DIGITS, 13)}-${hex(32)}`),
    token('slack app token', `xapp-1-A${rand(UPPER_ALNUM, 10)}-${rand(DIGITS, 13)}-${hex(64)}`),
    token('slack legacy workspace token', `xoxa-2-${an(40)}`),
    token('slack configuration token', `xoxe.xoxp-1-${rand(UPPER_ALNUM, 164)}`),
    token('slack refresh token', `xoxe-1-${rand(UPPER_ALNUM, 146)}`),
    contextual('slack webhook', (v) => `https://hooks.slack.com/services/${v}`, `T${rand(UPPER_ALNUM, 8)}/B${rand(UPPER_ALNUM, 10)}/${an(24)}`),
    contextual('discord webhook', (v) => `https://discord.com/api/webhooks/${rand(DIGITS, 18)}/${v}`, rand(URLSAFE, 68)),
    contextual('teams webhook', (v) => `https://steward.webhook.office.com/webhookb2/${v}`, `${uuid()}@${uuid()}/IncomingWebhook/${hex(32)}/${uuid()}`),
    assigned('discord bot token', 'DISCORD_BOT_TOKEN', `${rand(URLSAFE, 24)}.${rand(URLSAFE, 6)}.${rand(URLSAFE, 38)}`),
    token('telegram bot token', `${rand(DIGITS, 10)}:AA${rand(URLSAFE, 33)}`),
    token('twilio api key', `SK${hex(32)}`),
    assigned('twilio auth token', 'TWILIO_AUTH_TOKEN', hex(32)),
    token('sendgrid key', `SG.${rand(URLSAFE, 22)}.${rand(URLSAFE, 43)}`),
    token('sendinblue key', `xkeysib-${hex(64)}-${an(16)}`),
    token('mailgun key', `key-${hex(32)}`),
    token('mailchimp key', `${hex(32)}-us21`),
    token('resend key', `re_${an(8)}_${an(24)}`),
    assigned('postmark token', 'POSTMARK_SERVER_TOKEN', uuid()),
    token('sentry user token', `sntryu_${hex(64)}`),
    token('sentry org token', `sntrys_eyJpYXQiO${rand(B64, 90)}_${rand(B64, 43)}`),
    token('grafana cloud token', `glc_${rand(B64, 48)}==`),
    token('grafana service account token', `glsa_${an(32)}_${hex(8)}`),
    token('new relic user key', `NRAK-${rand(UPPER_ALNUM, 27)}`),
    token('new relic insert key', `NRII-${rand(`${LOWER_ALNUM}-`, 32)}`),
    token('dynatrace token', `dt0c01.${rand(UPPER_ALNUM, 24)}.${rand(ALNUM, 64)}`),
    assigned('datadog api key', 'DATADOG_API_KEY', hex(32)),
    assigned('datadog app key', 'DD_APP_KEY', hex(40)),
    assigned('honeycomb key', 'HONEYCOMB_API_KEY', an(32)),
    assigned('pagerduty token', 'PAGERDUTY_TOKEN', rand(URLSAFE, 20)),
    assigned('opsgenie key', 'OPSGENIE_API_KEY', uuid()),
    // SaaS and productivity.
    token('linear api key', `lin_api_${an(40)}`),
    token('notion token', `ntn_${rand(DIGITS, 11)}${an(35)}`),
    token('notion legacy secret', `secret_${an(43)}`),
    token('figma token', `figd_${rand(URLSAFE, 43)}`),
    token('airtable pat', `pat${an(14)}.${hex(64)}`),
    token('asana pat', `1/${rand(DIGITS, 16)}:${hex(32)}`),
    token('contentful pat', `CFPAT-${rand(URLSAFE, 43)}`),
    token('postman key', `PMAK-${hex(24)}-${hex(34)}`),
    token('readme key', `rdme_${rand(LOWER_ALNUM, 70)}`),
    token('typeform token', `tfp_${rand(URLSAFE, 59)}`),
    token('frameio token', `fio-u-${rand(URLSAFE, 64)}`),
    token('dropbox token', `sl.${rand(URLSAFE, 135)}`),
    token('adobe client secret', `p8e-${an(32)}`),
    token('clickhouse key', `4b1d${an(38)}`),
    token('harness pat', `pat.${rand(URLSAFE, 22)}.${an(24)}.${an(20)}`),
    token('intra42 secret', `s-s4t2ud-${hex(64)}`),
    token('maxmind license key', `${an(6)}_${an(29)}_mmk`),
    token('octopus deploy key', `API-${rand(UPPER_ALNUM, 26)}`),
    token('settlemint token', `sm_pat_${an(16)}`),
    token('facebook page token', `EAAC${an(120)}`),
    token('mapbox secret token', `sk.eyJ1Ijoi${an(50)}.${rand(URLSAFE, 22)}`),
    token('ngrok token', `2${an(26)}_${an(21)}`),
    assigned('algolia admin key', 'ALGOLIA_ADMIN_API_KEY', hex(32)),
    assigned('okta token', 'OKTA_API_TOKEN', `00${rand(URLSAFE, 40)}`),
    assigned('auth0 client secret', 'AUTH0_CLIENT_SECRET', rand(URLSAFE, 64)),
    assigned('twitter bearer token', 'TWITTER_BEARER_TOKEN', `AAAAAAAAAAAAAAAAAAAAA${an(80)}`),
    assigned('twitter consumer secret', 'TWITTER_CONSUMER_SECRET', an(50)),
    assigned('facebook app secret', 'FACEBOOK_APP_SECRET', hex(32)),
    assigned('hubspot key', 'HUBSPOT_API_KEY', uuid().toUpperCase()),
    assigned('zendesk token', 'ZENDESK_API_TOKEN', an(40)),
    assigned('intercom token', 'INTERCOM_ACCESS_TOKEN', rand(URLSAFE, 60)),
    assigned('launchdarkly key', 'LAUNCHDARKLY_SDK_KEY', `sdk-${uuid()}`),
    assigned('snyk token', 'SNYK_TOKEN', uuid()),
    assigned('firebase secret', 'FIREBASE_TOKEN', `1//${rand(URLSAFE, 100)}`),
    assigned('jwt secret', 'JWT_SECRET', rand(B64, 48)),
    assigned('django secret key', 'DJANGO_SECRET_KEY', `django-insecure-${rand(`${LOWER_ALNUM}!@#$%^&*(-_=+)`, 50)}`.replace(/[()]/g, 'x')),
    assigned('rails master key', 'RAILS_MASTER_KEY', hex(32)),
    assigned('encryption key', 'ENCRYPTION_KEY', rand(B64, 44)),
    assigned('session secret', 'SESSION_SECRET', an(40)),
    assigned('webhook signing secret', 'WEBHOOK_SIGNING_SECRET', an(32)),
    assigned('nextauth secret', 'NEXTAUTH_SECRET', rand(B64, 44)),
    token('jwt', `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${rand(URLSAFE, 60)}.${rand(URLSAFE, 43)}`),
    // Passwords and their contexts.
    assigned('env password', 'DB_PASSWORD', password()),
    assigned('env pass', 'SMTP_PASS', password()),
    assigned('postgres password variable', 'PGPASSWORD', password()),
    assigned('mysql pwd variable', 'MYSQL_PWD', password()),
    assigned('short password', 'password', rand('abcdefgh', 3)),
    contextual('yaml password', (v) => `password: ${v}`, password()),
    contextual('json password', (v) => `"password": "${v}"`, password()),
    contextual('python password kwarg', (v) => `connect(host="db", user="app", password="${v}")`, password()),
    contextual('toml passwd', (v) => `passwd = "${v}"`, password()),
    contextual('colon passwd', (v) => `passwd: ${v}`, password()),
    contextual('passphrase', (v) => `passphrase = '${v}'`, password()),
    contextual('sshpass', (v) => `sshpass -p '${v}' ssh deploy@build.example.net`, password()),
    contextual('sshpass bare', (v) => `sshpass -p ${v} scp dist.tgz deploy@build.example.net:/srv`, password()),
    contextual('mysql -p', (v) => `mysql -u root -p${v} app_production`, password()),
    contextual('mysqldump -p', (v) => `mysqldump -h db -uadmin -p${v} shop > shop.sql`, password()),
    contextual('password flag', (v) => `psql-wrapper --host db --password=${v} --db app`, password()),
    contextual('password flag spaced', (v) => `deploy-tool login --user ana --password ${v}`, password()),
    contextual('curl user', (v) => `curl -u ana:${v} https://api.example.net/v1/me`, password()),
    contextual('netrc', (v) => `machine api.example.net login ana password ${v}`, password()),
    contextual('xml password', (v) => `<password>${v}</password>`, password()),
    contextual('connection string password', (v) => `Server=db;Database=app;User Id=sa;Password=${v};`, password()),
    contextual('postgres url', (v) => `postgres://app:${v}@db.internal:5432/app`, password()),
    contextual('mongodb url', (v) => `mongodb+srv://admin:${v}@cluster0.abcde.mongodb.net/test`, password()),
    contextual('redis url', (v) => `redis://:${v}@cache.internal:6379/0`, password()),
    contextual('amqp url', (v) => `amqp://guest:${v}@mq.internal:5672/`, password()),
    contextual('https basic url', (v) => `https://ana:${v}@git.example.net/ana/repo.git`, password()),
    contextual('my password is', (v) => `my password is ${v}`, password()),
    contextual('my password is quoted', (v) => `My database password is "${v}" for now`, password()),
    contextual('the password was', (v) => `the password was ${v} until yesterday`, password()),
    contextual('pin is', (v) => `the pin is ${v}`, rand(DIGITS, 6)),
    // Headers.
    contextual('authorization bearer', (v) => `Authorization: Bearer ${v}`, rand(URLSAFE, 40)),
    contextual('authorization basic', (v) => `Authorization: Basic ${v}`, rand(B64, 28)),
    contextual('authorization token', (v) => `Authorization: token ${v}`, hex(40)),
    contextual('x-api-key header', (v) => `X-Api-Key: ${v}`, an(32)),
    contextual('x-auth-token header', (v) => `X-Auth-Token: ${v}`, an(40)),
    contextual('curl bearer', (v) => `curl -H "Authorization: Bearer ${v}" https://api.example.net`, rand(URLSAFE, 48)),
    // Key files.
    { kind: 'putty private key', ...((body) => ({ snippet: `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: ana\nPublic-Lines: 2\n${rand(B64, 64)}\n${rand(B64, 40)}\nPrivate-Lines: 2\n${body}`, secrets: body.split('\n') }))(`${rand(B64, 64)}\n${rand(B64, 48)}`) },
    // Credentials named in prose, added last so the values generated above stay as they were.
    contextual('password in prose with symbols', (v) => `my password is ${v}! ok`, `${password()}!${password()}`),
    contextual('passwd is', (v) => `his passwd is ${v}, he said`, password()),
    contextual('api key colon', (v) => `API key: ${v}`, hex(32)),
    contextual('token is', (v) => `the token is ${v}`, hex(40)),
    contextual('secret was', (v) => `the client secret was ${v} before the rotation`, an(24)),
    contextual('passwd bare', (v) => `passwd ${v}`, password()),
    contextual('passphrase quoted', (v) => `the passphrase is "${v}"`, `${rand('abcdefghijklmnopqrstuvwxyz', 7)} ${rand('abcdefghijklmnopqrstuvwxyz', 5)} ${rand('abcdefghijklmnopqrstuvwxyz', 8)}`),
    contextual('shared secret quoted', (v) => `the shared secret is '${v}' for both sides`, `${rand('abcdefghijklmnopqrstuvwxyz', 6)} ${rand('abcdefghijklmnopqrstuvwxyz', 9)} ${rand('abcdefghijklmnopqrstuvwxyz', 5)}`),
    // Passwords in prose a tester got through: curly quotes around an apostrophe, guillemets, a quoted
    // passphrase over two lines, a quote inside, an id:secret pair, dots and dollars.
    contextual('password in curly quotes with an apostrophe', (v) => `the password is “${v}”`, `it’s${password()}`),
    contextual('password in guillemets after a colon', (v) => `mot de passe : «${v}»`, password()),
    contextual('password in guillemets', (v) => `the password is «${v}»`, password()),
    contextual('passphrase over two lines', (v) => `the passphrase is "${v}"`, `${rand(LOWER, 7)} ${rand(LOWER, 5)}\n${rand(LOWER, 8)} ${rand(LOWER, 6)}`),
    contextual('password with a quote inside', (v) => `password is ${v}`, `${rand(LOWER, 2)}"${password()}`),
    contextual('api key id and secret pair', (v) => `API key: ${v}`, `AKIA${rand(DIGITS, 4)}:${hex(32)}`),
    contextual('password with dots and dollars', (v) => `password is ${v}`, `${rand(LOWER, 1)}.${rand(LOWER, 1)}$$${rand(LOWER, 2)}${rand(DIGITS, 1)}${rand(LOWER, 2)}.${rand(DIGITS, 4)}`),
    // Letters between its digit and its dot: `$ecret42.word` reads as code (`item2.name`) and is left.
    contextual('password starting with a dollar', (v) => `password: ${v}`, `$${rand(LOWER, 5)}${rand('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 1)}${rand(DIGITS, 1)}${rand(LOWER, 2)}.${rand(LOWER, 4)}`),
    // What an attacker got through the stop after: a key after a dash or a bare space, a password after an
    // arrow, `pass:` and `pin:`, a password named for what it opens, German quotes, SQL's doubled quote,
    // a quoted value over a real line break.
    contextual('api key after a dash', (v) => `API key - ${v}`, hex(32)),
    contextual('api key after a space', (v) => `API key ${v}`, hex(32)),
    contextual('password after an arrow', (v) => `password -> ${v}`, password()),
    contextual('pass colon', (v) => `pass: ${v}`, password()),
    contextual('pin colon', (v) => `pin: ${v}`, rand(DIGITS, 4)),
    contextual('password for something is', (v) => `The password for the db is ${v}`, password()),
    contextual('password in german quotes', (v) => `Passwort: „${v}“`, `${password()} ${password()}`),
    contextual('sql password with a doubled quote', (v) => `ALTER USER app WITH PASSWORD '${v}';`, `it''s-${password()}`),
    contextual('password quoted over a line break', (v) => `[db]\npassword = "${v}"\nuser = "app"`, `${password()}\n  ${password()}`),
    // Passwords given to common commands on their line (QA 45, B2), quoted as a shell needs for their symbols.
    contextual('docker login -p', (v) => `docker login -u ana -p '${v}' registry.example.net`, password()),
    contextual('redis-cli -a', (v) => `redis-cli -h cache -a '${v}' ping`, password()),
    contextual('sqlcmd -P', (v) => `sqlcmd -S db -U sa -P '${v}' -Q 'select 1'`, password()),
    contextual('ldapsearch -w', (v) => `ldapsearch -x -D cn=admin,dc=example,dc=org -w '${v}' -b dc=example,dc=org`, password()),
    contextual('ldappasswd -s', (v) => `ldappasswd -x -D cn=admin -W -s '${v}' uid=ana,ou=people`, password()),
    contextual('smbclient user%password', (v) => `smbclient //files/share -U 'ana%${v}' -c ls`, password()),
    contextual('htpasswd -b', (v) => `htpasswd -b /etc/nginx/.htpasswd ana '${v}'`, password()),
    contextual('echo into sudo -S', (v) => `echo '${v}' | sudo -S apt update`, password()),
    contextual('here-string into sudo -S', (v) => `sudo -S systemctl restart nginx <<< '${v}'`, password()),
    // More commands that take a password on their line, and the forms today's rules missed (QA 45b).
    contextual('zip -P', (v) => `zip -P '${v}' backup.zip notes.txt`, password()),
    contextual('7z -p', (v) => `7z a -p'${v}' backup.7z notes.txt`, password()),
    contextual('keytool -storepass', (v) => `keytool -list -keystore app.jks -storepass '${v}'`, password()),
    contextual('openssl -k', (v) => `openssl enc -aes-256-cbc -k '${v}' -in notes.txt`, password()),
    contextual('openssl -passout pass:', (v) => `openssl pkcs12 -export -in cert.pem -passout pass:'${v}'`, password()),
    contextual('mongosh -p', (v) => `mongosh mongodb://db.example.net -u ana -p '${v}'`, password()),
    contextual('psexec -p', (v) => `psexec \\\\build01 -u admin -p '${v}' cmd`, password()),
    contextual('oc login -p', (v) => `oc login https://api.example.net:6443 -u ana -p '${v}'`, password()),
    contextual('smbmap -p', (v) => `smbmap -H 10.0.0.5 -u ana -p '${v}'`, password()),
    contextual('xfreerdp /p:', (v) => `xfreerdp /v:build01 /u:ana /p:'${v}'`, password()),
    contextual('lftp -u user,password', (v) => `lftp -u 'ana,${v}' sftp://files.example.net`, password()),
    contextual('net use', (v) => `net use Z: \\\\files\\share "${v}" /user:corp\\ana`, password()),
    contextual('net user', (v) => `net user ana "${v}" /add`, password()),
    contextual('ConvertTo-SecureString', (v) => `$pw = ConvertTo-SecureString '${v}' -AsPlainText -Force`, password()),
    contextual('rabbitmqctl add_user', (v) => `rabbitmqctl add_user ana '${v}'`, password()),
    contextual('redis AUTH', (v) => `redis-cli -h cache AUTH default '${v}'`, password()),
    contextual('expect send', (v) => `expect "password:"\nsend "${v}\\r"`, password()),
    contextual('pgpass line', (v) => `~/.pgpass:\ndb.example.net:5432:shop:ana:${v}`, password()),
    contextual('docker login -p glued', (v) => `docker login -u ana -p'${v}' registry.example.net`, password()),
    contextual('docker login --password-stdin', (v) => `echo '${v}' | docker login -u ana --password-stdin registry.example.net`, password()),
    contextual('curl -u glued', (v) => `curl -sSu 'ana:${v}' https://api.example.net/v1/me`, password()),
    contextual('REDISCLI_AUTH', (v) => `REDISCLI_AUTH='${v}' redis-cli -h cache ping`, password()),
    contextual('ssh-keygen -N', (v) => `ssh-keygen -t ed25519 -N '${v}' -f ~/.ssh/deploy`, password()),
    contextual('setx', (v) => `setx SMTP_PASSWORD "${v}" /M`, password()),
    contextual('.NET appSettings', (v) => `<add key="SmtpPassword" value="${v}" />`, password()),
    // A YAML block scalar's password, and a connection string's password before its server (attack-followups-6).
    contextual('yaml block password', (v) => `password: |\n  ${v}\nuser: app`, password()),
    contextual('connection string password first', (v) => `Password=${v};Server=db;Uid=sa;`, rand(LOWER, 7)),
    // A Markdown table's row (attack-followups-8).
    contextual('markdown table password', (v) => `| Password | ${v} |`, password()),
    // A label and the password alone in the fenced block after it (gaps-s49: its own shape, fenced-password).
    contextual('markdown fenced password', (v) => `**Password:**\n\`\`\`\n${v}\n\`\`\``, password()),
    // A Markdown table whose header row alone names the password's column (gaps-after-s49: markdown-password-column).
    contextual('markdown table password column', (v) => `\n| User | Password |\n|---|---|\n| ana | ${v} |\n`, password()),
  ];
  // The AWS pair: a key id, and the bare secret key beside it.
  const pair = kinds.find((k) => k.kind === 'aws key pair')!;
  pair.secrets = pair.snippet.split(' ');
  return kinds;
}

export type Context = 'prose' | 'code' | 'command line' | 'json';
export const CONTEXTS: readonly Context[] = ['prose', 'code', 'command line', 'json'];

/** The kind's snippet set in ordinary surroundings that add no credential words of their own. */
export function inContext(snippet: string, context: Context): string {
  if (context === 'prose') return `Yesterday I pasted ${snippet} into the settings page and the build went green.`;
  if (context === 'code') return `const setting = ${JSON.stringify(snippet)};\nrender(setting);`;
  if (context === 'command line') return `$ mytool configure ${snippet} --verbose`;
  return JSON.stringify({ note: snippet, at: '2026-11-29T10:00:00Z' });
}

/** Whether any piece of `secret` (8 characters, or the whole of a shorter one) survived. */
export function leaks(output: string, secret: string): boolean {
  const width = Math.min(8, secret.length);
  for (let i = 0; i + width <= secret.length; i += 1) if (output.includes(secret.slice(i, i + width))) return true;
  return false;
}
