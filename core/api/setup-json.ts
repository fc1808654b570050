import type { SetupApplied, SetupPlan } from './maintenance.js';

/**
 * A setup plan and its apply in spec 004's JSON words (`plan_id`, `config_hash`, `data_boundary` …),
 * as the CLI prints them and the MCP tools return them: one spelling for every surface that shows them.
 */
export function setupPlanJson(plan: SetupPlan) {
  return {
    plan_id: plan.planId,
    status: plan.status,
    action: plan.action,
    repo: plan.repo,
    registration_id: plan.registrationId,
    effects: plan.effects.map((e) => ({ class: e.class, description: e.description, needs_person: e.needsPerson })),
    config_hash: plan.configHash,
    data_boundary: plan.dataBoundary,
    policy: plan.policy,
    profile: { name: plan.profile.name, provider: plan.profile.provider, model: plan.profile.model, data_boundary: plan.profile.dataBoundary },
    blocker: plan.blocker,
    handoff: plan.handoff,
  };
}

export function setupAppliedJson(applied: SetupApplied) {
  return {
    plan_id: applied.planId,
    status: applied.status,
    registration_id: applied.registrationId,
    repo: applied.repo,
    enrollment: {
      completed: applied.enrollment.completed,
      created: applied.enrollment.created,
      cache_created: applied.enrollment.cacheCreated,
      updated: applied.enrollment.updated,
      replayed: applied.enrollment.replayed,
    },
    initial_jobs: applied.jobs.map((j) => ({ job_id: j.jobId, stage: j.stage, lane: j.lane, state: j.state, coalesced: j.coalesced })),
    detached: applied.detached,
    history: applied.history,
    service_installed: applied.serviceInstalled,
    model_downloaded: applied.modelDownloaded,
    smoke: applied.smoke,
    registration_state: applied.registration.state,
  };
}
