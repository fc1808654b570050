import { useState, type ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { Badge, Button, ErrorBanner, Panel } from '../../components/index.js';
import { useCall, useClient } from '../../hooks.js';

type Plan = Result<'Hooks.Plan'>;
type Applied = Result<'Hooks.Apply'>;

/**
 * Steward's notes at every Claude Code session start: a SessionStart hook in Claude Code's own
 * settings. The panel plans the change and shows it; nothing is written until Confirm. The MCP
 * server is offered as a command to copy, for agents that should ask for the notes themselves.
 */
export function AgentContext(): ReactElement {
  const client = useClient();
  const status = useCall('Hooks.Status', { agent: 'claude' });
  const [plan, setPlan] = useState<Plan | undefined>();
  const [applied, setApplied] = useState<Applied | undefined>();
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState<string | undefined>();
  const [error, setError] = useState<{ title: string; error: Error } | undefined>();
  const s = status.data;

  const fail = (title: string) => (e: unknown) => {
    setBusy(false);
    setError({ title, error: e instanceof Error ? e : new Error('Steward did not answer.') });
  };

  const review = (action: Plan['action']) => {
    if (!client) return;
    setBusy(true);
    setError(undefined);
    setApplied(undefined);
    client.call('Hooks.Plan', { agent: 'claude', action }).then((p) => {
      setBusy(false);
      setPlan(p);
    }, fail('The change could not be prepared.'));
  };

  const confirm = () => {
    if (!client || !plan) return;
    setBusy(true);
    client.call('Hooks.Apply', { agent: 'claude', action: plan.action, planHash: plan.planHash }).then((result) => {
      setBusy(false);
      setPlan(undefined);
      setApplied(result);
      status.reload();
    }, (e: unknown) => {
      setPlan(undefined);
      fail('The change was not made.')(e);
    });
  };

  const copy = () => {
    if (!s) return;
    navigator.clipboard.writeText(s.mcpCommand).then(
      () => setCopied('Copied. Paste it in a terminal to register Steward with Claude Code.'),
      () => setCopied('Copying is not allowed here: select the command above and copy it.'),
    );
  };

  return (
    <Panel title="Notes for your agents">
      <ErrorBanner title="The agent settings could not be read." error={status.error} onRetry={status.reload} />
      <div className="agent-context" aria-busy={busy}>
        <p className="field__hint">
          At every Claude Code session start (new, resumed, cleared or compacted), Steward can hand the agent the notes it keeps for the
          project: the overview, and for folders that are not git repositories the durable facts. It reads Steward&rsquo;s files only, needs no
          running Steward, and stays under 8 KB. Installing adds one entry to Claude Code&rsquo;s settings; you see the change first.
        </p>
        {s && (
          <p>
            {s.installed ? <Badge tone="good">Installed</Badge> : <Badge tone="neutral">Not installed</Badge>} in <code>{s.settingsPath}</code>
          </p>
        )}
        {!plan && (
          <div className="agent-context__actions">
            <Button disabled={busy || !s} onClick={() => review(s?.installed ? 'uninstall' : 'install')}>
              {s?.installed ? 'Remove the session-start hook…' : 'Install the session-start hook…'}
            </Button>
          </div>
        )}
        {plan && !plan.changed && (
          <p role="status">
            Nothing to change: the hook is {plan.action === 'install' ? 'already there' : 'not there'}.{' '}
            <Button variant="quiet" onClick={() => setPlan(undefined)}>
              Close
            </Button>
          </p>
        )}
        {plan && plan.changed && (
          <div className="agent-context__confirm" role="group" aria-label="The change to Claude Code's settings">
            <p>
              <strong>{plan.action === 'install' ? 'Add this to' : 'Remove this from'} <code>{plan.settingsPath}</code>?</strong> Every other
              setting stays as it is, and the current file is kept beside it as a backup.
            </p>
            <pre className="agent-context__diff" aria-label="Change to be made">
              {plan.diff}
            </pre>
            <div className="agent-context__actions">
              <Button variant="primary" disabled={busy} onClick={confirm}>
                {busy ? 'Applying…' : 'Confirm'}
              </Button>
              <Button disabled={busy} onClick={() => setPlan(undefined)}>
                Cancel
              </Button>
            </div>
          </div>
        )}
        {applied && (
          <p role="status">
            {applied.installed ? 'Installed' : 'Removed'} in <code>{applied.settingsPath}</code>.
            {applied.backupPath ? (
              <>
                {' '}
                The previous file is kept as <code>{applied.backupPath}</code>.
              </>
            ) : null}{' '}
            New Claude Code sessions pick it up.
          </p>
        )}
        {s && (
          <div className="agent-context__mcp">
            <p className="field__hint">Or let an agent ask for the notes when it wants them, through Steward&rsquo;s MCP server:</p>
            <pre className="agent-context__command">{s.mcpCommand}</pre>
            <div className="agent-context__actions">
              <Button onClick={copy}>Copy MCP setup command</Button>
            </div>
            {copied !== undefined && <p role="status">{copied}</p>}
          </div>
        )}
        <ErrorBanner title={error?.title ?? ''} error={error?.error} />
      </div>
    </Panel>
  );
}
