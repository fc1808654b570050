import type { ReactElement } from 'react';
import { Badge, Button, CopyButton, ErrorBanner, Panel, PathText } from '../../components/index.js';
import { useAction, useCall } from '../../hooks.js';
import { SECTIONS } from './sections.js';
import './agent-context.css';

/** The planned change to Claude Code's settings, shown before anything is written; Confirm writes exactly it. */
function HookChange({ installed, onChanged }: { installed: boolean; onChanged: () => void }): ReactElement {
  const plan = useAction('Hooks.Plan');
  const apply = useAction('Hooks.Apply');
  const p = plan.data;
  const confirm = () => p && void apply.run({ agent: 'claude', action: p.action, planHash: p.planHash }).then((done) => (plan.reset(), done && onChanged()));
  const applied = apply.data;
  return (
    <>
      {!p && (
        <div className="agent-context__actions">
          <Button disabled={plan.busy} onClick={() => void plan.run({ agent: 'claude', action: installed ? 'uninstall' : 'install' })}>
            {installed ? 'Remove the session-start hook…' : 'Install the session-start hook…'}
          </Button>
        </div>
      )}
      {p && !p.changed && (
        <p role="status">
          Nothing to change: the hook is {p.action === 'install' ? 'already there' : 'not there'}.{' '}
          <Button variant="quiet" onClick={plan.reset}>
            Close
          </Button>
        </p>
      )}
      {p?.changed && (
        <div className="agent-context__confirm" role="group" aria-label="The change to Claude Code's settings">
          <p>
            <strong>
              {p.action === 'install' ? 'Add this to' : 'Remove this from'} <PathText path={p.settingsPath} />?
            </strong>{' '}
            Every other setting stays as it is, and the current file is kept beside it as a backup.
          </p>
          <pre className="agent-context__diff" aria-label="Change to be made" tabIndex={0}>
            {p.diff}
          </pre>
          <div className="agent-context__actions">
            <Button variant="primary" disabled={apply.busy} onClick={confirm}>
              {apply.busy ? 'Applying…' : 'Confirm'}
            </Button>
            <Button disabled={apply.busy} onClick={plan.reset}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {applied && (
        <p role="status">
          {applied.installed ? 'Installed' : 'Removed'} in <PathText path={applied.settingsPath} />.
          {applied.backupPath && (
            <>
              {' '}
              The previous file is kept as <PathText path={applied.backupPath} />.
            </>
          )}{' '}
          New Claude Code sessions pick it up.
        </p>
      )}
      <ErrorBanner title="The change could not be prepared." error={plan.error} />
      <ErrorBanner title="The change was not made." error={apply.error} />
    </>
  );
}

/**
 * Steward's notes at every Claude Code session start: a SessionStart hook in Claude Code's own
 * settings, planned and shown before anything is written. The MCP server is offered as a command to
 * copy, for agents that should ask for the notes themselves.
 */
export function AgentContext(): ReactElement {
  const status = useCall('Hooks.Status', { agent: 'claude' });
  const s = status.data;
  return (
    <Panel title={SECTIONS.agentNotes.title} id={SECTIONS.agentNotes.id}>
      <ErrorBanner title="The agent settings could not be read." error={status.error} onRetry={status.reload} />
      <div className="agent-context">
        <p className="field__hint">
          At every Claude Code session start (new, resumed, cleared or compacted), Steward can hand the agent the notes it keeps for the project: the overview, and for
          folders that are not git repositories the durable facts. It reads Steward&rsquo;s files only, needs no running Steward, and stays under 8 KB. Installing adds one
          entry to Claude Code&rsquo;s settings; you see the change first.
        </p>
        {s && (
          <p>
            {s.installed ? <Badge tone="good">Installed</Badge> : <Badge tone="neutral">Not installed</Badge>} in <PathText path={s.settingsPath} />
          </p>
        )}
        {s && <HookChange installed={s.installed} onChanged={status.reload} />}
        {s && (
          <div className="agent-context__mcp">
            <p className="field__hint">Or let an agent ask for the notes when it wants them, through Steward&rsquo;s MCP server:</p>
            <pre className="agent-context__command">{s.mcpCommand}</pre>
            <CopyButton text={s.mcpCommand} label="Copy MCP setup command" what="the MCP setup command" />
          </div>
        )}
      </div>
    </Panel>
  );
}
