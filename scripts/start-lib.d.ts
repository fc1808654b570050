// Types of start-lib.js (plain JavaScript: `npm start` runs it before anything is compiled).

export type ElectronLookup = { binary: string; reason?: undefined; fix?: undefined } | { binary?: undefined; reason: string; fix: string };

/** `fix` says how to get the desktop app where it cannot run now (absent for --headless). */
export type LaunchDecision = { mode: 'electron'; binary: string; version: string } | { mode: 'serve'; reason: string; fix?: string };

export declare const DOWNLOAD_ELECTRON: string;

export interface StartOptions {
  dryRun: boolean;
  headless: boolean;
  build: boolean;
  serveArgs: string[];
}

export interface ElectronTarget {
  version: string;
  abi: string;
}

export interface NativePaths {
  dir: string;
  work: string;
  binding: string;
  stamp: string;
}

export interface NativeStamp {
  electron: string;
  abi: string;
  betterSqlite3: string;
  platform: string;
  arch: string;
}

export interface BuildStep {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export function findElectronBinary(root: string, env?: NodeJS.ProcessEnv): ElectronLookup;
export function hasDisplay(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean;
export function decideLaunch(input: {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  electron: ElectronLookup;
  probe: (binary: string) => string | undefined;
  headless?: boolean;
  uid?: number | undefined;
}): LaunchDecision;
export function headlessLine(reason: string, fix?: string): string;
export function parseArgs(argv: readonly string[]): StartOptions;
export function electronTarget(root: string): ElectronTarget;
export function betterSqliteVersion(root: string): string;
export function nativePaths(root: string): NativePaths;
export function nativeStamp(target: ElectronTarget, betterSqlite3: string, platform: string, arch: string): NativeStamp;
export function isStampCurrent(stampText: string, expected: NativeStamp): boolean;
export function cleanBuildEnv(env: NodeJS.ProcessEnv): Record<string, string>;
export function nativeBuildSteps(input: {
  root: string;
  work: string;
  target: ElectronTarget;
  platform: string;
  arch: string;
  env: NodeJS.ProcessEnv;
  nodeGyp: string;
}): BuildStep[];
export function moduleAbi(bytes: Buffer): string | undefined;
