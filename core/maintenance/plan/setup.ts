import { isErrorCode, methods, PROTOCOL_VERSION, StewardError, type DocumentSource, type ParsedParams, type ReconcileResult, type SetupApplied, type SetupBlocker, type SetupEffect, type SetupPlan, type SetupRequest, type WaitingPlan } from '../../api/index.js';
import type { Enrollment, EnrollResult } from '../enrollment.js';
import { TOKEN_NAMES } from '../forges/index.js';
import { hashOf, opaqueId } from '../hashing.js';
import { configHashOf, policyHashOf } from '../identity.js';
import { replayReceipt } from '../receipts.js';
import type { Room } from '../room.js';
import type { Conflict, Registration } from '../schema.js';
import { checkSource, distinctSources, SourceProblemError, type SourceProblem } from '../sources.js';
import { registrationStatus } from '../status.js';
import { effectsOf, listWords, type PlanAction } from './effects.js';
import type { ModelState, PlanFacts } from './facts.js';
import { resolveRequest, type Resolved } from './target.js';
import { WaitingBook } from './waiting.js';
import { handoffOf, historyOf, setupStatusOf } from './words.js';

export type ApplyParams = ParsedParams<'Maintenance.Apply'>;

/** Bumped when what a plan covers changes, so a plan made by an older Steward is never applied by a newer one. */
const SETUP_PLAN_VERSION = 1;

/** A resolved request with its document folders checked (real roots: private, never in a plan). */
type Checked = Resolved & { sources: DocumentSource[] };

/** A rendered plan with the private parts apply needs (the registration, the snapshot, what to perform). */
interface Rendered {
  plan: SetupPlan;
  resolved: Checked;
  installLogin: boolean;
  download: boolean;
}

/** What asking the provider found: the model's state, or the blocker its failure is. */
type ProviderCheck = { model: ModelState | null; blocker: SetupBlocker | null };

const PROVIDER_REMEDIES: Record<string, string> = {
  ollama: 'Start Ollama (`ollama serve`) and check the profile, then plan again.',
  'openai-compatible': "Start the embedding server, or check the profile's endpoint and its key (`steward secrets list`), then plan again.",
  local: "Install the model runtime beside Steward and put the model folder under Steward's models folder, then plan again.",
};

function blockerOf(error: unknown, remediation: string): SetupBlocker {
  const code = error instanceof StewardError ? error.code : 'internal';
  const message = error instanceof StewardError ? error.message : 'The embedding provider could not be asked.';
  return { code, message, remediation };
}

/** What a survey of the machine found for one request. */
interface Survey {
  existing: Registration | null;
  forge: SetupPlan['forge'];
  identity: unknown;
  configHash: string;
  boundary: { boundary: SetupPlan['dataBoundary']; host: string | null };
  blocker: SetupBlocker | null;
  model: ModelState | null;
  download: boolean;
  login: { enabled: boolean; supported: boolean };
  installLogin: boolean;
  action: PlanAction;
}

function heldBlocker(conflict: Conflict, repo: string): SetupBlocker {
  // A conflict with an incumbent challenges a registration that stays maintained: what waits is a choice of settings, not of copies.
  if (conflict.incumbent) {
    return {
      code: conflict.kind,
      message: `Other settings for ${repo} (its document sources or policy) wait in Conflicts; it stays maintained as it is, and nothing else is planned for it until you choose.`,
      remediation: 'Choose which settings to keep in the Conflicts place, or with `steward maintenance conflicts` and `steward maintenance resolve`.',
    };
  }
  return {
    code: conflict.kind,
    message: `An open cache conflict holds ${repo}; nothing is planned for it until a copy is chosen.`,
    remediation: 'Choose which copy to keep in the Conflicts place, or with `steward maintenance conflicts` and `steward maintenance resolve`.',
  };
}

/** Why a document folder was refused, in words a person reads beside the field; never the path (it is theirs). */
const SOURCE_PROBLEM_WORDS: Record<SourceProblem, (ref: string | null) => string> = {
  git_missing: () => 'Document folders are read with git, and git is not on PATH.',
  no_folder: () => 'There is no folder there.',
  not_folder: () => 'That is a file, not a folder.',
  not_work_tree: () => "That folder is not inside a git work tree, and Steward lists a folder's documents with git: run `git init` in it (nothing needs to be committed), or add it as a git repository.",
  not_repository: () => 'That folder is not a git repository.',
  bad_ref: (ref) => `${JSON.stringify(ref)} is not a ref.`,
  no_commit: (ref) => `The repository has no commit at ${JSON.stringify(ref)}.`,
};

/** A refused document folder as a typed error naming the field it came from (`sources.N.root` or `sources.N.ref`). */
function sourceRefusal(error: SourceProblemError, index: number): StewardError {
  const field = error.problem === 'bad_ref' || error.problem === 'no_commit' ? 'ref' : 'root';
  const words = SOURCE_PROBLEM_WORDS[error.problem](error.ref);
  return new StewardError('invalid_params', `Document folder ${index + 1}: ${words}`, { fields: { [`sources.${index}.${field}`]: { message: words } }, problem: error.problem });
}

/** A refusal of the request's folders as a whole, named on the `sources` field as the panel's other forms name theirs. */
function sourcesRefusal(message: string): StewardError {
  return new StewardError('invalid_params', message, { fields: { sources: { message } } });
}

/** Everything a plan depends on except whether an owner must be started: equal bases are the same plan. */
function basisOf(resolved: Resolved, seen: Survey, sources: readonly string[]): string {
  const r = seen.existing;
  return hashOf({
    v: SETUP_PLAN_VERSION,
    protocol: PROTOCOL_VERSION,
    target: resolved.targetKey,
    action: seen.action,
    identity: seen.identity,
    registration: r ? { id: r.registrationId, fp: r.pathFingerprint, policy: policyHashOf(r.policy), configHash: r.configHash, enabled: r.enabled, disabledReason: r.disabledReason } : null,
    policy: resolved.policy,
    configHash: seen.configHash,
    boundary: seen.boundary,
    model: seen.model,
    login: seen.login,
    installLogin: seen.installLogin,
    download: seen.download,
    blocker: seen.blocker?.code ?? null,
    ...(sources.length > 0 ? { sources } : {}),
  });
}

/** A plan's id: its basis, and whether Steward must still be started for it. */
function planIdOf(basis: string, ownerRunning: boolean): string {
  return opaqueId('plan', [basis, ownerRunning], 20);
}

/**
 * Whether the plan confirmed is the plan rendered now. Starting Steward is the confirmed plan's own
 * effect, which `enable` performs between a person's yes and the apply: a plan that said it would
 * start Steward is still that plan once Steward runs. Never the other way round (that would start
 * Steward unconfirmed), and never for an agent, who may not confirm starting Steward.
 */
function confirms(params: ApplyParams, plan: SetupPlan, ownerRunning: boolean): boolean {
  if (params.planId === plan.planId) return true;
  return params.confirmedBy === 'person' && ownerRunning && params.planId === planIdOf(plan.basis, false);
}

/** What planIdOf makes: any other id was never a plan, so nothing can have changed since it was made. */
const PLAN_ID = /^plan_[0-9a-f]{20}$/;

/**
 * Why a confirmed id is not the plan rendered now: an id Steward never makes is unknown (planning
 * again with it would loop forever on "stale"); a real plan's id that no longer matches is stale.
 */
function notThisPlan(confirmed: string, current: string): StewardError {
  if (!PLAN_ID.test(confirmed)) return new StewardError('not_found', 'No plan has that id; make one with maintenance_plan (or `steward maintenance plan`) and apply the plan_id it returns.');
  return new StewardError('stale_plan', 'Something changed after the plan was made (identity, binding, configuration, provider, service state or policy); nothing was applied. Plan again.', { planId: current });
}

/** The operation key a terminal derives from a plan when a person confirms it interactively. */
export function operationKeyOf(planId: string): string {
  return `op_${hashOf(['setup-operation', planId]).slice(0, 24)}`;
}

/** What the receipt of a setup covers: the request, not what the registry became, so a replay is recognised after it applied. */
function requestHashOf(resolved: Resolved, request: SetupRequest, sources: readonly string[]): string {
  const policy: Record<string, unknown> = Object.fromEntries(Object.entries(request.policy ?? {}).filter(([, v]) => v !== undefined));
  if (Array.isArray(policy.collections)) policy.collections = [...(policy.collections as string[])].sort();
  return hashOf({
    op: 'setup',
    target: resolved.targetKey,
    policy,
    configHash: configHashOf(resolved.snapshot),
    serviceInstall: request.serviceInstall !== false,
    modelDownload: request.modelDownload !== false,
    // Only when given, so the receipts of setups without folders still replay.
    ...(sources.length > 0 ? { sources } : {}),
  });
}

/**
 * The setup surface of spec 004: plans (read-only, deterministic) and their apply, composed from
 * enrollment, configuration resolution and the reconciliation of that one registration. Plans an
 * agent could not confirm wait here for a person.
 */
export class Setup {
  readonly #room: Room;
  readonly #enrollment: Enrollment;
  readonly #facts: PlanFacts;
  readonly #reconcile: (registrationId: string) => Promise<ReconcileResult>;
  readonly #onWaiting: () => void;
  /** On disk, so a plan waits across a restart and whichever process recorded it. */
  readonly #waiting: WaitingBook;
  /** Applies take turns up to their enrollment: two at once could each create a cache for the same repository. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(room: Room, enrollment: Enrollment, facts: PlanFacts, reconcile: (registrationId: string) => Promise<ReconcileResult>, onWaiting: () => void = () => undefined) {
    this.#room = room;
    this.#enrollment = enrollment;
    this.#facts = facts;
    this.#reconcile = reconcile;
    this.#onWaiting = onWaiting;
    this.#waiting = new WaitingBook(room.home, room.logger);
  }

  async plan(request: SetupRequest, signal?: AbortSignal): Promise<SetupPlan> {
    return (await this.#render(request, signal)).plan;
  }

  /** The request against the registry, with its document folders checked; a refused folder is invalid_params naming its field. */
  async #resolve(request: SetupRequest): Promise<Checked> {
    const resolved = resolveRequest(this.#room.store.current(), request, this.#facts.profiles.profiles(), (s) => this.#facts.profiles.boundary(s).boundary);
    const asked = request.sources ?? [];
    const sources: DocumentSource[] = [];
    for (const [index, s] of asked.entries()) {
      try {
        sources.push(await checkSource(s));
      } catch (error) {
        throw error instanceof SourceProblemError ? sourceRefusal(error, index) : error;
      }
    }
    return { ...resolved, sources: distinctSources(sources) };
  }

  /** What a plan and a receipt know of the folders: their kind, ref and path fingerprint, never the path. */
  #sourceKeys(sources: readonly DocumentSource[]): string[] {
    return sources.map((s) => `${s.kind}:${s.ref}:${this.#room.fingerprint(s.root)}`).sort();
  }

  async #render(request: SetupRequest, signal?: AbortSignal, checked?: Checked): Promise<Rendered> {
    const resolved = checked ?? (await this.#resolve(request));
    // After the replay check of an apply: the same key still replays the setup that added them.
    if (resolved.sources.length > 0 && resolved.target.kind !== 'new') {
      throw sourcesRefusal(`${resolved.repo} is already maintained; its document folders are chosen when it is added, so leave Local documents empty to change its policy.`);
    }
    const seen = await this.#survey(resolved, request, signal);
    const { existing, forge, boundary, blocker, action } = seen;
    const { policy, snapshot, repo } = resolved;
    const effects = effectsOf({
      action,
      repo,
      forgeHost: forge?.host ?? null,
      policy,
      previous: existing ? { policy: existing.policy, configHash: existing.configHash, enabled: existing.enabled, repair: existing.disabledReason === 'config_snapshot_invalid' } : null,
      configHash: seen.configHash,
      snapshot,
      boundary,
      model: seen.model,
      ownerRunning: this.#facts.service.ownerRunning,
      installLogin: seen.installLogin,
      download: seen.download,
      documentFolders: resolved.sources.length,
    });
    const basis = basisOf(resolved, seen, this.#sourceKeys(resolved.sources));
    const planId = planIdOf(basis, this.#facts.service.ownerRunning);
    const changes = action !== 'none' || effects.some((e) => e.class !== 'inspect' && e.class !== 'job_enqueue');
    const status = blocker ? 'blocked' : changes ? 'confirmation_required' : setupStatusOf(registrationStatus(existing!, this.#room.store.current().jobs, this.#room.clock()));
    const plan: SetupPlan = {
      planId,
      basis,
      status,
      action,
      registrationId: existing?.registrationId ?? null,
      repo,
      forge,
      policy: { sync: policy.sync, collections: [...policy.collections], rag: policy.rag, profile: policy.profile },
      profile: { name: policy.profile, provider: snapshot.embedding.provider, model: snapshot.embedding.model, dataBoundary: boundary.boundary },
      configHash: seen.configHash,
      dataBoundary: boundary.boundary,
      effects,
      blocker,
      handoff: handoffOf(request, policy, operationKeyOf(planId)),
    };
    return { plan, resolved, installLogin: seen.installLogin, download: seen.download };
  }

  /** Everything a plan is made of, read without changing anything: identity, forge token, provider, service state. */
  async #survey(resolved: Resolved, request: SetupRequest, signal?: AbortSignal): Promise<Survey> {
    const { target, policy, snapshot, repo } = resolved;
    const existing = target.kind === 'existing' ? target.registration : null;
    const forge = existing ? existing.forge : target.kind === 'new' ? { kind: target.forge, host: target.host } : null;
    const identity = existing ? this.#identity(existing) : null;
    let blocker = target.kind === 'held' ? heldBlocker(target.conflict, repo) : (identity?.blocker ?? null);
    blocker ??= this.#forgeBlocker(policy.sync !== 'off' && policy.collections.length > 0, forge, existing);
    const provider = policy.rag === 'maintain' && blocker === null ? await this.#askProvider(resolved, request, signal) : { model: null, blocker: null };
    blocker ??= provider.blocker;
    const login = this.#facts.service.startAtLogin();
    const configHash = configHashOf(snapshot);
    return {
      existing,
      forge,
      identity: identity?.evidence ?? null,
      configHash,
      boundary: this.#facts.profiles.boundary(snapshot),
      blocker,
      model: provider.model,
      download: provider.model?.present === false && provider.model.downloadable && request.modelDownload !== false,
      login,
      installLogin: request.serviceInstall !== false && login.supported && !login.enabled,
      action: this.#actionOf(existing, policy, configHash),
    };
  }

  #actionOf(existing: Registration | null, policy: Resolved['policy'], configHash: string): PlanAction {
    if (!existing) return 'create';
    const repair = existing.disabledReason === 'config_snapshot_invalid';
    if (repair || policyHashOf(existing.policy) !== policyHashOf(policy) || existing.configHash !== configHash) return 'update';
    return existing.enabled ? 'none' : 'resume';
  }

  /** Revalidates the registration's cache: the same UUID at the same path, still binding the repository. */
  #identity(r: Registration): { evidence: unknown; blocker: SetupBlocker | null } {
    try {
      const seen = this.#room.inspect(r.cachePath);
      const same = seen.cacheUuid === r.cacheUuid && seen.pathFingerprint === r.pathFingerprint && seen.resolveRepository(r.canonicalRepoId) === r.canonicalRepoId;
      if (same) return { evidence: [seen.cacheUuid, seen.pathFingerprint, seen.schemaVersion], blocker: null };
    } catch {
      // An unreadable cache blocks the plan below, like a replaced one.
    }
    return {
      evidence: null,
      blocker: {
        code: 'cache_invalid',
        message: 'The cache this registration names is missing, unreadable, or no longer the same cache.',
        remediation: 'Put the cache file back where it was registered (`steward service maintenance` shows the registration), then plan again.',
      },
    };
  }

  #forgeBlocker(syncs: boolean, forge: SetupPlan['forge'], existing: Registration | null): SetupBlocker | null {
    if (!syncs) return null;
    if (!forge) {
      if (existing?.sources.length) return null;
      return {
        code: 'unsupported',
        message: 'This cache does not say which forge it syncs from, so nothing can be synced for it.',
        remediation: 'Add the repository with its forge (`steward maintenance plan --repo OWNER/NAME --forge …`), or plan with --sync off.',
      };
    }
    const name = TOKEN_NAMES[forge.kind];
    if (this.#facts.tokenPresent(name)) return null;
    return {
      code: 'token_missing',
      message: `No ${name} is stored, so nothing can be read from ${forge.host}.`,
      remediation: `Store the token with \`printenv ${name} | steward secrets set ${name}\` (or set ${name} in Steward's environment), then plan again.`,
    };
  }

  async #askProvider(resolved: Resolved, request: SetupRequest, signal?: AbortSignal): Promise<ProviderCheck> {
    const { snapshot } = resolved;
    const provider = snapshot.embedding.provider;
    const remedy = PROVIDER_REMEDIES[provider] ?? 'Check the profile in the configuration, then plan again.';
    let model: ModelState;
    try {
      model = await this.#facts.profiles.model(snapshot, signal);
    } catch (error) {
      return { model: null, blocker: blockerOf(error, remedy) };
    }
    if (model.present || (model.downloadable && request.modelDownload !== false)) return { model, blocker: null };
    const remediation =
      provider === 'ollama' ? `Download it with \`ollama pull ${snapshot.embedding.model}\` (or plan without --no-model-download), then plan again.` : remedy;
    return { model, blocker: { code: 'model_missing', message: `The model ${snapshot.embedding.model} of profile ${snapshot.profile} is not there yet.`, remediation } };
  }

  /**
   * Applies exactly the plan named: a replayed key resumes what it did; otherwise the plan is
   * rendered again and must be the same plan, its blockers and person-only effects are honoured,
   * then services, the model and a real embedding request come before enrollment, and the one
   * registration is reconciled.
   */
  async apply(params: ApplyParams, signal?: AbortSignal): Promise<SetupApplied> {
    const mine = this.#turn.then(() => this.#enrollInTurn(params, signal));
    this.#turn = mine.catch(() => undefined);
    const outcome = await mine;
    if (outcome.replayed) return this.#resume(outcome.enrolled, params);
    return this.#finish(outcome.planId, outcome.enrolled, { created: outcome.enrolled.created, cacheCreated: outcome.enrolled.cacheCreated, replayed: false }, params, outcome.performed);
  }

  async #enrollInTurn(
    params: ApplyParams,
    signal?: AbortSignal,
  ): Promise<
    | { replayed: true; enrolled: EnrollResult }
    | { replayed: false; planId: string; enrolled: EnrollResult & { cacheCreated: boolean }; performed: { serviceInstalled: boolean; modelDownloaded: boolean; smoke: SetupApplied['smoke'] } }
  > {
    // Folders are a person's input: an agent names repositories, never paths (and its waiting plans hold none).
    if (params.confirmedBy === 'agent' && (params.sources?.length ?? 0) > 0) {
      throw sourcesRefusal('An agent may not add local document folders; a person adds them in the panel or with `steward maintenance add --docs`.');
    }
    const resolved = await this.#resolve(params);
    const requestHash = requestHashOf(resolved, params, this.#sourceKeys(resolved.sources));
    const replay = replayReceipt(this.#room.store.current(), params.idempotencyKey, 'setup', requestHash);
    if (replay) return { replayed: true, enrolled: methods['Maintenance.Enroll'].result.parse({ ...replay, replayed: true }) };
    const rendered = await this.#render(params, signal, resolved);
    const { plan } = rendered;
    if (!confirms(params, plan, this.#facts.service.ownerRunning)) throw notThisPlan(params.planId, plan.planId);
    if (plan.blocker) throw new StewardError(isErrorCode(plan.blocker.code) ? plan.blocker.code : 'internal', plan.blocker.message, { remediation: plan.blocker.remediation });
    this.#refuseWhatNeedsAPerson(params, plan);
    const performed = await this.#performPersonEffects(rendered, signal);
    const smoke = await this.#smoke(resolved, signal);
    const enrolled = this.#enroll(rendered, params, requestHash);
    this.#settleWaiting(plan);
    this.#room.logger.info('maintenance setup applied', { registrationId: enrolled.registrationId, action: plan.action, created: enrolled.created });
    // The id the person confirmed, which may name the Steward start `enable` has since performed.
    return { replayed: false, planId: params.planId, enrolled, performed: { ...performed, smoke } };
  }

  /** An agent may enroll and enqueue; a service, a model download or text sent off this machine waits for a person. */
  #refuseWhatNeedsAPerson(params: ApplyParams, plan: SetupPlan): void {
    const needs = plan.effects.filter((e: SetupEffect) => e.needsPerson);
    const handoff = handoffOf(params, plan.policy, params.idempotencyKey);
    if (params.confirmedBy === 'agent' && needs.length > 0) {
      this.#remember(params, plan, needs.map((e) => e.description));
      throw new StewardError('confirmation_required', `A person must confirm part of this plan (${listWords(needs.map((e) => e.class))}); it can be confirmed in the panel or with the command in handoff.`, {
        handoff,
        needs: needs.map((e) => e.description),
      });
    }
    // Only the scheduling owner keeps a cache current; starting one is the terminal's step of `enable`.
    if (!this.#facts.service.ownerRunning) {
      throw new StewardError('confirmation_required', 'Steward is not running in the background; `steward maintenance enable` starts it and applies the plan.', { handoff, needs: needs.map((e) => e.description) });
    }
  }

  async #performPersonEffects(rendered: Rendered, signal?: AbortSignal): Promise<{ serviceInstalled: boolean; modelDownloaded: boolean }> {
    let serviceInstalled = false;
    let modelDownloaded = false;
    if (rendered.installLogin) {
      this.#facts.service.installStartAtLogin();
      serviceInstalled = true;
    }
    if (rendered.download) {
      try {
        await this.#facts.profiles.download(rendered.resolved.snapshot, signal);
      } catch (error) {
        throw this.#withRemedy(error, rendered.resolved);
      }
      modelDownloaded = true;
    }
    return { serviceInstalled, modelDownloaded };
  }

  /** A real embedding request through the confirmed profile before anything is enrolled. */
  async #smoke(resolved: Resolved, signal?: AbortSignal): Promise<SetupApplied['smoke']> {
    const { policy, snapshot } = resolved;
    if (policy.rag !== 'maintain' || snapshot.embedding.provider === 'none') return null;
    try {
      const { dimensions } = await this.#facts.profiles.smoke(snapshot, policy, signal);
      return { provider: snapshot.embedding.provider, dimensions };
    } catch (error) {
      throw this.#withRemedy(error, resolved);
    }
  }

  #withRemedy(error: unknown, resolved: Resolved): StewardError {
    const blocker = blockerOf(error, PROVIDER_REMEDIES[resolved.snapshot.embedding.provider] ?? 'Check the profile in the configuration, then plan again.');
    return new StewardError(isErrorCode(blocker.code) ? blocker.code : 'internal', blocker.message, { remediation: blocker.remediation });
  }

  /** The registry mutation and its receipt, in one atomic write. */
  #enroll(rendered: Rendered, params: ApplyParams, requestHash: string): EnrollResult & { cacheCreated: boolean } {
    const { target, policy, snapshot, sources } = rendered.resolved;
    const receipt = { key: params.idempotencyKey, requestHash };
    if (target.kind === 'new') {
      const { file, cacheCreated } = this.#enrollment.createKeyedCache(target, params.idempotencyKey);
      const enroll = { cachePath: file, repo: target.alias, policy, config: snapshot, ...(sources.length > 0 ? { sources } : {}), idempotencyKey: params.idempotencyKey };
      const result = this.#enrollment.enroll(enroll, { operation: 'setup', requestHash });
      return { ...result, cacheCreated };
    }
    if (target.kind !== 'existing') throw new StewardError('stale_plan', 'The repository changed after the plan was made. Plan again.');
    if (rendered.plan.action === 'none') return { ...this.#enrollment.acknowledge(target.registration, receipt), cacheCreated: false };
    return { ...this.#enrollment.update(target.registration, { policy, snapshot, alias: target.alias }, receipt), cacheCreated: false };
  }

  /** A replayed key: nothing is done again; the registration it made is reconciled (joining running work). */
  async #resume(enrolled: EnrollResult, params: ApplyParams): Promise<SetupApplied> {
    this.#room.logger.info('maintenance setup replayed', { registrationId: enrolled.registrationId });
    return this.#finish(params.planId, enrolled, { created: enrolled.created, cacheCreated: false, replayed: true }, params, { serviceInstalled: false, modelDownloaded: false, smoke: null });
  }

  async #finish(
    planId: string,
    enrolled: EnrollResult,
    how: { created: boolean; cacheCreated: boolean; replayed: boolean },
    params: ApplyParams,
    performed: { serviceInstalled: boolean; modelDownloaded: boolean; smoke: SetupApplied['smoke'] },
  ): Promise<SetupApplied> {
    let jobs: SetupApplied['jobs'] = [];
    if (params.detach) {
      void this.#reconcile(enrolled.registrationId).catch((error: unknown) =>
        this.#room.logger.warn('maintenance first pass failed', { registrationId: enrolled.registrationId, code: (error as { code?: string }).code ?? 'internal' }),
      );
    } else {
      const pass = await this.#reconcile(enrolled.registrationId);
      jobs = pass.jobs.map((j) => ({ jobId: j.jobId, stage: j.stage, lane: j.lane, state: j.state, coalesced: j.coalesced }));
    }
    const registry = this.#room.store.current();
    const r = registry.registrations.find((x) => x.registrationId === enrolled.registrationId);
    if (!r) throw new StewardError('not_found', 'The registration is no longer in the registry (a conflict may hold it); see `steward maintenance conflicts`.');
    const registration = registrationStatus(r, registry.jobs, this.#room.clock());
    return {
      planId,
      status: setupStatusOf(registration),
      registrationId: r.registrationId,
      repo: registration.canonicalRepoId,
      enrollment: { completed: true, created: how.created, cacheCreated: how.cacheCreated, updated: !how.created && !how.replayed, replayed: how.replayed },
      jobs,
      detached: params.detach === true,
      history: historyOf(registration),
      ...performed,
      documentFolders: r.sources.length,
      registration,
    };
  }

  #remember(request: SetupRequest, plan: SetupPlan, needs: string[]): void {
    const waitingId = opaqueId('wait', [plan.repo, plan.policy, plan.registrationId], 12);
    const clean: WaitingPlan['request'] = Object.fromEntries(Object.entries(request).filter(([k]) => !['planId', 'idempotencyKey', 'confirmedBy', 'detach', 'sources'].includes(k)));
    this.#waiting.record({ waitingId, request: clean, repo: plan.repo, askedAt: this.#room.clock(), needs });
    this.#onWaiting();
  }

  /** A person confirmed a plan for a repository an agent asked about: that request no longer waits. */
  #settleWaiting(plan: SetupPlan): void {
    if (this.#waiting.remove((w) => w.repo === plan.repo)) this.#onWaiting();
  }

  waiting(): WaitingPlan[] {
    return this.#waiting.list().sort((a, b) => b.askedAt - a.askedAt);
  }

  dismiss(waitingId: string): boolean {
    const dismissed = this.#waiting.remove((w) => w.waitingId === waitingId);
    if (dismissed) this.#onWaiting();
    return dismissed;
  }
}
