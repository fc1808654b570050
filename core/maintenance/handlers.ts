import type { Handlers } from '../api/index.js';
import type { Logger } from '../log/index.js';
import type { Maintenance } from './maintenance.js';

type MaintenanceMethod =
  | 'Maintenance.Add'
  | 'Maintenance.Enroll'
  | 'Maintenance.List'
  | 'Maintenance.Reconcile'
  | 'Maintenance.ReconcileRegistration'
  | 'Maintenance.ResolveConfig'
  | 'Maintenance.Disable'
  | 'Maintenance.Remove'
  | 'Maintenance.Enable'
  | 'Maintenance.Plan'
  | 'Maintenance.Apply'
  | 'Maintenance.Profiles'
  | 'Maintenance.Waiting'
  | 'Maintenance.Dismiss'
  | 'Conflicts.List'
  | 'Conflicts.Plan'
  | 'Conflicts.Evidence'
  | 'Conflicts.Apply';

/** The contract's maintenance and conflict methods, bound to the room. */
export function maintenanceHandlers(maintenance: Maintenance): Pick<Handlers, MaintenanceMethod> {
  return {
    'Maintenance.Add': (params) => maintenance.add(params),
    'Maintenance.Enroll': (params) => maintenance.enroll(params),
    'Maintenance.List': () => maintenance.list(),
    // The spec's immediate pass: the head runs whatever its interval (the timer waits for it).
    'Maintenance.Reconcile': () => maintenance.reconcileNow(),
    'Maintenance.ReconcileRegistration': ({ registrationId }) => maintenance.reconcileNow(registrationId),
    'Maintenance.ResolveConfig': ({ config }) => maintenance.resolveConfig(config),
    'Maintenance.Disable': ({ registrationId }) => ({ registration: maintenance.disable(registrationId) }),
    'Maintenance.Remove': (params) => maintenance.remove(params),
    'Maintenance.Enable': ({ registrationId }) => ({ registration: maintenance.enable(registrationId) }),
    'Maintenance.Plan': (params) => maintenance.planSetup(params),
    'Maintenance.Apply': (params) => maintenance.applySetup(params),
    'Maintenance.Profiles': () => maintenance.profiles(),
    'Maintenance.Waiting': () => ({ waiting: maintenance.waitingPlans() }),
    'Maintenance.Dismiss': ({ waitingId }) => ({ dismissed: maintenance.dismissWaiting(waitingId) }),
    'Conflicts.List': () => ({ conflicts: maintenance.conflicts() }),
    'Conflicts.Plan': ({ conflictId, candidateId }) => maintenance.plan(conflictId, candidateId),
    'Conflicts.Evidence': ({ conflictId }) => maintenance.conflictEvidence(conflictId),
    'Conflicts.Apply': ({ planId, idempotencyKey }) => maintenance.apply(planId, idempotencyKey),
  };
}

const STARTUP_DELAY_MS = 5_000;

/**
 * The owner's reconcile timer. A pass never overlaps the previous one, and a failed pass is logged
 * by class only; the returned stop waits for in-flight writers to unwind.
 */
export function scheduleReconcile(maintenance: Maintenance, intervalMs: number, logger: Logger): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const pass = () => {
    if (running || maintenance.store.degradedReason) return;
    running = maintenance
      .reconcile()
      .catch((error: unknown) => logger.warn('maintenance reconcile pass failed', { code: (error as { code?: string }).code ?? 'internal' }))
      .finally(() => (running = null));
  };
  // The first pass comes soon after start: jobs interrupted by a crash are revalidated and rescheduled.
  const first = intervalMs > STARTUP_DELAY_MS ? setTimeout(pass, STARTUP_DELAY_MS) : undefined;
  const timer = setInterval(pass, intervalMs);
  first?.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
    await maintenance.stop();
  };
}
