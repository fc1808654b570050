import { readFileSync } from 'node:fs';
import { noStoredProjectWords, StewardError, type Handlers } from '../api/index.js';
import { redactSecrets, type KeyRing } from '../secrets/index.js';
import { applyHook, claudeSettingsPath, hookCommand, hookInstalled, mcpSetupCommand, planHook } from './claude-hooks.js';
import { localModels } from './local-models.js';
import { testCurator } from './curators/index.js';
import type { SweeperState } from './state.js';
import { saveCuratorChoice, saveDailyBudget, sweeperSettingsFrom } from './settings.js';
import { curatorBoundary, SweeperFailure, type Sweeper } from './sweeper.js';

type SweeperMethods =
  | 'Projects.Get'
  | 'Sweeper.Run'
  | 'Sweeper.PlanAll'
  | 'Sweeper.RunAll'
  | 'Projects.SetScratch'
  | 'Projects.Scratch'
  | 'Settings.TestCurator'
  | 'Settings.Get'
  | 'Settings.SetCurator'
  | 'Settings.SetApiKey'
  | 'Settings.SetBudget'
  | 'Settings.LocalModels'
  | 'Hooks.Status'
  | 'Hooks.Plan'
  | 'Hooks.Apply';

/** A note as served: redacted again on the way out, so a note written before a rule existed leaks nothing. */
function readNote(file: string): string | null {
  try {
    return redactSecrets(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The state as the contract shows it: the day a rebuild reaches back to, the forgets counted and the endpoint's hash are the sweeper's own business. */
function stateView(state: SweeperState): Omit<SweeperState, 'version' | 'notesStaleFromDay' | 'notesStaleMarks' | 'overviewWritten' | 'lastEndpoint'> {
  const { version: _version, notesStaleFromDay: _fromDay, notesStaleMarks: _marks, overviewWritten: _written, lastEndpoint: _endpoint, ...view } = state;
  return view;
}

function notFound(projectKey: string, sweeper: Sweeper): StewardError {
  // A forgotten project's row stays until its forget has erased every conversation: it is not unknown.
  if (sweeper.isForgotten(projectKey)) return new StewardError('not_found', `Project ${projectKey} is forgotten: Steward keeps no notes for it, and writes none`);
  const words = noStoredProjectWords(projectKey, sweeper.holdsProjects());
  return new StewardError('not_found', `${words[0]!.toUpperCase()}${words.slice(1)}`);
}

function settingsView(sweeper: Sweeper, ring: KeyRing) {
  const s = sweeper.settings;
  const keys = sweeper.apiKeys();
  const store = ring.store;
  return {
    sweeper: {
      enabled: s.enabled,
      curator: s.curator,
      model: s.model,
      baseUrl: s.baseUrl ?? null,
      anthropicBaseUrl: s.anthropicBaseUrl ?? null,
      minIntervalMs: s.minIntervalMs,
      inputTokenBudget: s.inputTokenBudget,
      timeoutMs: s.timeoutMs,
      keys: { anthropic: !!keys.anthropic, openai: !!keys.openai },
      apiKeys: ring.presence(),
      keyStore: { kind: store.kind, ...store.status() },
      paused: sweeper.pauses(),
      dataBoundary: curatorBoundary(s),
      budget: sweeper.budget(),
    },
  };
}

function sweeperError(error: unknown): unknown {
  return error instanceof SweeperFailure ? new StewardError(error.code, error.message) : error;
}

/** The sweeper's part of the Core's handler map, the agent-context hook included. */
export function sweeperHandlers(sweeper: Sweeper, home: string, env: NodeJS.ProcessEnv, ring: KeyRing): Pick<Handlers, SweeperMethods> {
  return {
    'Projects.Get': ({ projectKey }) => {
      const target = sweeper.target(projectKey);
      if (!target) throw notFound(projectKey, sweeper);
      const { project, paths } = target;
      const state = sweeper.state(target);
      // After a forget the notes may still name the forgotten conversation: none are shown until rebuilt.
      const stale = state.notesStaleSince !== null;
      return {
        projectKey,
        name: project.name,
        cwd: project.cwd,
        repoBacked: project.repoBacked,
        slug: project.slug,
        notesPath: paths.dir,
        overview: stale ? null : readNote(paths.overview),
        changelog: stale ? null : readNote(paths.changelog),
        claudeMd: project.repoBacked ? null : readNote(paths.claude),
        ignored: sweeper.isIgnored(project),
        state: stateView(state),
        paused: sweeper.pauseOf(sweeper.settings.curator),
      };
    },
    'Sweeper.Run': async ({ projectKey, force }) => {
      if (!sweeper.target(projectKey)) throw notFound(projectKey, sweeper);
      try {
        return await sweeper.run(projectKey, { force: force ?? false });
      } catch (error) {
        throw sweeperError(error);
      }
    },
    'Sweeper.PlanAll': () => sweeper.planAll(),
    'Sweeper.RunAll': (confirmed) => sweeper.runAll(confirmed),
    'Projects.Scratch': () => ({ projects: sweeper.scratchProjects() }),
    'Projects.SetScratch': async ({ projectKey, scratch }) => {
      const result = await sweeper.setScratch(projectKey, scratch);
      if (result === null) throw notFound(projectKey, sweeper);
      return { projectKey, scratch: result };
    },
    'Settings.Get': () => settingsView(sweeper, ring),
    'Settings.SetCurator': (choice) => {
      const config = saveCuratorChoice(home, env, choice, sweeper.settings.curator);
      sweeper.updateSettings(sweeperSettingsFrom(config));
      return settingsView(sweeper, ring);
    },
    'Settings.SetApiKey': async ({ curator, key }) => {
      const result = await ring.set(curator, key);
      // A new key is the user's answer to an auth pause: the next sweep may try again.
      sweeper.liftPause(curator);
      return result;
    },
    'Settings.SetBudget': ({ dailyModelCalls }) => {
      sweeper.updateSettings(sweeperSettingsFrom(saveDailyBudget(home, env, dailyModelCalls)), { liftPauses: false });
      return settingsView(sweeper, ring);
    },
    'Settings.LocalModels': () => localModels(sweeper.settings.ollamaUrl),
    'Settings.TestCurator': (choice) => testCurator(choice, { anthropic: ring.lookup('anthropic').key, openai: ring.lookup('openai-compatible').key, storable: ring.store.status().writable }, sweeper.settings.timeoutMs),
    'Hooks.Status': ({ agent }) => ({ agent, installed: hookInstalled(env), settingsPath: claudeSettingsPath(env), command: hookCommand(env, home), mcpCommand: mcpSetupCommand(env, home) }),
    'Hooks.Plan': ({ action }) => planHook(action, env, home),
    'Hooks.Apply': ({ agent, action, planHash }) => ({ agent, action, ...applyHook(action, env, planHash, home) }),
  };
}
