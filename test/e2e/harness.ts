/**
 * End-to-end harness: the BUILT Steward (`npm run build` first) run as `steward serve` in a child
 * process on a temp STEWARD_HOME, and Debian Chromium driven by playwright-core. Every e2e file
 * (panel, capture, maintenance, sweeper) starts its owner and browser through here.
 *
 *   const steward = await startServe({ env: { STEWARD_CLAUDE_ROOTS: fixtureRoot } });
 *   const browser = await launchChromium();
 *   const { page } = await openPanel(browser, steward);
 *   ...
 *   await browser.close();
 *   await steward.stop();           // SIGTERM; throws unless exit 0 and daemon.json removed
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { rootKinds, type MethodName, type Params, type Result } from '../../core/api/index.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const STEWARD_BIN = join(REPO_ROOT, 'bin', 'steward.js');
/** Where e2e tests put screenshots and other artefacts (ignored by git). */
export const TEST_RESULTS_DIR = join(REPO_ROOT, 'test-results');

export const URL_LINE = /^Steward control panel: (http:\/\/127\.0\.0\.1:(\d+)\/)#token=([A-Za-z0-9_-]{16,128})$/;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// ---------------------------------------------------------------- temp folders and cleanup

const cleanups = new Set<() => void>();
const children = new Set<ChildProcess>();

process.once('exit', () => {
  // A failed test must not leave an owner holding a lock or a port behind.
  for (const child of children) child.kill('SIGKILL');
  for (const cleanup of cleanups) cleanup();
});

/** A fresh folder under the OS temp dir, removed when the test process exits (or by `remove`). */
export function makeTempDir(prefix = 'steward-e2e-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => {
    cleanups.delete(remove);
    rmSync(dir, { recursive: true, force: true });
  };
  cleanups.add(remove);
  return { dir, remove };
}

export function assertBuilt(): void {
  const missing = [join(REPO_ROOT, 'dist', 'core', 'cli', 'main.js'), join(REPO_ROOT, 'dist', 'renderer', 'index.html')].filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`The e2e tests run against the built output, which is missing (${missing.join(', ')}). Run \`npm run build\` first.`);
}

// ---------------------------------------------------------------- the environment of a Steward

export interface StewardEnvOptions {
  /** STEWARD_HOME; a fresh temp folder when omitted. */
  home?: string;
  /** Transcript roots per provider; each defaults to none (an empty variable), never the real home. */
  claudeRoots?: readonly string[];
  claudeDesktopRoots?: readonly string[];
  openclawRoots?: readonly string[];
  codexRoots?: readonly string[];
  geminiRoots?: readonly string[];
  /** Extra variables (STEWARD_SWEEP_INTERVAL_MS, fake provider URLs…); they win over everything above. */
  env?: Record<string, string>;
}

const ROOT_SEPARATOR = process.platform === 'win32' ? ';' : ':';

/**
 * A minimal environment: PATH and the like from this process, but nothing that could point Steward at
 * the developer's real data or keys (HOME is a temp folder too).
 */
export function stewardEnv(home: string, options: StewardEnvOptions = {}): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'LANG', 'LC_ALL', 'TZ', 'SystemRoot', 'TEMP', 'TMP', 'TMPDIR']) {
    const value = process.env[key];
    if (value !== undefined) inherited[key] = value;
  }
  return {
    ...inherited,
    HOME: join(home, '.user-home'),
    USERPROFILE: join(home, '.user-home'),
    XDG_CONFIG_HOME: join(home, '.user-home', '.config'),
    STEWARD_HOME: home,
    // Every kind of root the registry declares starts empty, so a provider added later never reads the real home.
    ...Object.fromEntries(rootKinds().map(({ kind }) => [kind.env, ''])),
    STEWARD_CLAUDE_ROOTS: (options.claudeRoots ?? []).join(ROOT_SEPARATOR),
    STEWARD_CLAUDE_DESKTOP_ROOTS: (options.claudeDesktopRoots ?? []).join(ROOT_SEPARATOR),
    STEWARD_OPENCLAW_ROOTS: (options.openclawRoots ?? []).join(ROOT_SEPARATOR),
    STEWARD_CODEX_ROOTS: (options.codexRoots ?? []).join(ROOT_SEPARATOR),
    STEWARD_GEMINI_ROOTS: (options.geminiRoots ?? []).join(ROOT_SEPARATOR),
    NO_COLOR: '1',
    ...options.env,
  };
}

// ---------------------------------------------------------------- one-shot CLI runs

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `steward <args>` to completion (e.g. a second `serve`, or `steward backfill --json`); `input` goes to its stdin. */
export function runSteward(args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000, input?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [STEWARD_BIN, ...args], { cwd: REPO_ROOT, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin!.end(input);
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`steward ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

// ---------------------------------------------------------------- raw HTTP (any Host, Origin, token)

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request with exactly the headers given (fetch would refuse to forge Host or Origin), for
 * checking the door. `host` defaults to the owner's own `127.0.0.1:PORT`.
 */
export function rawRequest(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/', headers, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error('request timed out')));
    req.end(options.body);
  });
}

export class RpcCallError extends Error {
  constructor(
    message: string,
    readonly rpcCode: number,
    readonly data: { code?: string; details?: Record<string, unknown> } | undefined,
  ) {
    super(message);
    this.name = 'RpcCallError';
  }

  get code(): string | undefined {
    return this.data?.code;
  }
}

// ---------------------------------------------------------------- steward serve

export interface ServeOptions extends StewardEnvOptions {
  /** Extra arguments after `serve` (default `--port 0`). */
  args?: readonly string[];
  /** Prepares STEWARD_HOME (config.json, fixture caches…) before the owner starts. */
  prepareHome?: (home: string) => void | Promise<void>;
  /** How long to wait for the URL line. */
  readyTimeoutMs?: number;
}

export interface StopResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  daemonJsonRemoved: boolean;
}

export interface ServedSteward {
  home: string;
  env: NodeJS.ProcessEnv;
  child: ChildProcess;
  /** The exact line printed on stdout. */
  urlLine: string;
  /** The panel's address including `#token=…`, as printed. */
  panelUrl: string;
  /** `http://127.0.0.1:PORT/` (no token). */
  baseUrl: string;
  port: number;
  token: string;
  daemonJson: string;
  stdout(): string;
  stderr(): string;
  /** One JSON-RPC call with the token; throws RpcCallError carrying `data.code`. */
  rpc<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  /** SIGTERM and wait; throws unless it exits 0 and removes daemon.json (pass `{ check: false }` to only report). */
  stop(options?: { check?: boolean; timeoutMs?: number }): Promise<StopResult>;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`steward serve did not exit within ${timeoutMs} ms of SIGTERM`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/**
 * Starts `steward serve --port 0` on a temp (or given) STEWARD_HOME and resolves once it printed its
 * URL line. The temp home is removed on `stop()`.
 */
export async function startServe(options: ServeOptions = {}): Promise<ServedSteward> {
  assertBuilt();
  const temp = options.home === undefined ? makeTempDir('steward-home-') : undefined;
  const home = options.home ?? temp!.dir;
  mkdirSync(home, { recursive: true });
  await options.prepareHome?.(home);
  const env = stewardEnv(home, options);
  const child = spawn(process.execPath, [STEWARD_BIN, 'serve', ...(options.args ?? ['--port', '0'])], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));

  const readyTimeoutMs = options.readyTimeoutMs ?? 15_000;
  const urlLine = await new Promise<string>((resolve, reject) => {
    const fail = (reason: string) => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`${reason}\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    const onData = (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline === -1) return;
      cleanup();
      resolve(stdout.slice(0, newline));
    };
    const onExit = (code: number | null) => fail(`steward serve exited (code ${code}) before printing its URL line`);
    const timer = setTimeout(() => fail(`steward serve printed no URL line within ${readyTimeoutMs} ms`), readyTimeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
  // Keep collecting, so a test can assert nothing else was ever printed on stdout.
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));

  const match = URL_LINE.exec(urlLine);
  if (!match) {
    child.kill('SIGKILL');
    throw new Error(`Unexpected first stdout line from steward serve: ${JSON.stringify(urlLine)}`);
  }
  const [, baseUrl, portText, token] = match as unknown as [string, string, string, string];
  const port = Number(portText);
  const daemonJson = join(home, 'daemon.json');
  let nextId = 1;

  const rpc = async <M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> => {
    const response = await rawRequest(port, {
      method: 'POST',
      path: '/rpc',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    if (response.status !== 200) throw new Error(`/rpc answered HTTP ${response.status}: ${response.body}`);
    const envelope = JSON.parse(response.body) as { result?: unknown; error?: { code: number; message: string; data?: { code?: string; details?: Record<string, unknown> } } };
    if (envelope.error) throw new RpcCallError(envelope.error.message, envelope.error.code, envelope.error.data);
    return envelope.result as Result<M>;
  };

  let stopped: Promise<StopResult> | undefined;
  const stop = async ({ check = true, timeoutMs = 15_000 } = {}): Promise<StopResult> => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const { code, signal } = await waitForExit(child, timeoutMs);
      const daemonJsonRemoved = !existsSync(daemonJson);
      temp?.remove();
      return { code, signal, daemonJsonRemoved };
    })();
    const result = await stopped;
    if (check && (result.code !== 0 || !result.daemonJsonRemoved)) {
      throw new Error(`steward serve did not stop cleanly: exit ${result.code} (signal ${result.signal}), daemon.json removed: ${result.daemonJsonRemoved}\nstderr: ${stderr}`);
    }
    return result;
  };

  return { home, env, child, urlLine, panelUrl: `${baseUrl}#token=${token}`, baseUrl, port, token, daemonJson, stdout: () => stdout, stderr: () => stderr, rpc, stop };
}

// ---------------------------------------------------------------- Chromium

/** CHROME_PATH, then Debian's /usr/bin/chromium; Playwright's own browser download is never used. */
export function findChromium(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium'].filter((path): path is string => Boolean(path));
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  throw new Error(
    'No Chromium found for the end-to-end tests. Install it with `sudo apt-get install -y chromium` ' +
      '(Debian/Ubuntu), or set CHROME_PATH to a Chromium or Chrome executable. ' +
      `Looked at: ${candidates.join(', ') || '(nothing)'}.`,
  );
}

/*
 * One Chromium serves the whole e2e run (its files run one after another in one process): launching and
 * closing one took 1.5–3 s per file on two busy cores. Each `launchChromium()` is a handle on it: what a
 * handle opens (contexts, each with its own storage and cache) is closed by its `close()`, so no test sees
 * another's pages; the browser itself closes once no handle has been open for a while, or with the
 * process (Playwright kills it on exit). One that crashed or was closed is launched again.
 */
const BROWSER_IDLE_MS = 5_000;

let sharedBrowser: Promise<Browser> | undefined;
let handlesOpen = 0;
let idleTimer: NodeJS.Timeout | undefined;

function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
}

/** The shared browser, launched when there is none (or it is gone); set at once, so two callers share one launch. */
function theBrowser(): Promise<Browser> {
  const previous = sharedBrowser;
  sharedBrowser = previous ? previous.then((browser) => (browser.isConnected() ? browser : launchBrowser()), launchBrowser) : launchBrowser();
  return sharedBrowser;
}

export async function launchChromium(): Promise<Browser> {
  clearTimeout(idleTimer);
  const browser = await theBrowser();
  handlesOpen += 1;
  const owned = new Set<BrowserContext>();
  const own = (context: BrowserContext): BrowserContext => {
    owned.add(context);
    context.once('close', () => owned.delete(context));
    return context;
  };
  let closed = false;
  const ownMethods: Partial<Browser> = {
    newContext: async (options?: BrowserContextOptions) => own(await browser.newContext(options)),
    newPage: async (options?: BrowserContextOptions) => {
      const page = await browser.newPage(options);
      own(page.context());
      return page;
    },
    contexts: () => [...owned],
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...owned].map((context) => context.close().catch(() => undefined)));
      handlesOpen -= 1;
      if (handlesOpen > 0) return;
      idleTimer = setTimeout(() => {
        // Forgotten first: a handle asked for while it closes gets a new browser, not this one.
        sharedBrowser = undefined;
        void browser.close().catch(() => undefined);
      }, BROWSER_IDLE_MS);
      idleTimer.unref();
    },
  };
  const handle: Browser = new Proxy(browser, {
    get(target, property) {
      if (Object.hasOwn(ownMethods, property)) return ownMethods[property as keyof Browser];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return handle;
}

/**
 * What a tab reports while no owner listens: its stream and calls fail at the network, refused, or
 * closed by the stopping owner mid-request (reset, or an empty response on a kept-alive connection),
 * or, as Debian's Chromium 150 says it on some runs, a socket that never connected.
 * Tests that stop the owner take these out of the window between the stop and the reconnect only.
 */
export function besidesOwnerGone(problems: readonly string[]): string[] {
  return problems.filter((p) => !p.includes('/events') && !/net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|SOCKET_NOT_CONNECTED)\b/.test(p));
}

export interface OpenedPanel {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and failed requests (CSP violations show up here). */
  problems: string[];
}

/**
 * Opens the panel with its token in a fresh context (own storage) and waits until the shell has
 * rendered its status bar. Pass `url` to open something else (e.g. the bare address, no token).
 */
export async function openPanel(browser: Browser, steward: ServedSteward, options: { url?: string; context?: BrowserContextOptions } = {}): Promise<OpenedPanel> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options.context });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (req) => {
    // The event stream is cut when the page closes, and a reload or navigation aborts whatever was
    // still in flight (the favicon, say): neither is a problem of the panel. Any other failure is.
    const aborted = req.failure()?.errorText === 'net::ERR_ABORTED';
    if (!req.url().endsWith('/events') && !aborted) problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`);
  });
  await page.goto(options.url ?? steward.panelUrl, { waitUntil: 'load' });
  if (options.url === undefined) await page.getByTestId('status-bar').waitFor();
  return { context, page, problems };
}

/** Goes to a place through the navigation, as a person would, and waits for it to be shown. */
/** Polls until `check` answers (the owner works on its own schedule), failing after `timeoutMs`. */
export async function eventually<T>(what: string | (() => string), check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  // Soon after a step the answer is often a moment away: look again after 25, 50, then every 100 ms.
  for (let pause = 25; ; pause = Math.min(2 * pause, 100)) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${typeof what === 'string' ? what : what()}: not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

export async function goToPlace(page: Page, label: string): Promise<void> {
  await page.locator('nav[aria-label="Places"]').getByText(label, { exact: true }).click();
  await page.locator(`main[data-place="${label.toLowerCase()}"]`).waitFor();
}

export function screenshotPath(name: string): string {
  mkdirSync(TEST_RESULTS_DIR, { recursive: true });
  return join(TEST_RESULTS_DIR, name);
}

/** The README's screenshots live in docs/screenshots/ and are made by the e2e run, so they show the panel as it is. */
export const DOCS_SCREENSHOTS_DIR = join(REPO_ROOT, 'docs', 'screenshots');

export function docsScreenshotPath(name: string): string {
  mkdirSync(DOCS_SCREENSHOTS_DIR, { recursive: true });
  return join(DOCS_SCREENSHOTS_DIR, name);
}
