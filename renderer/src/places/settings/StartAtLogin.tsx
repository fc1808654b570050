import type { ReactElement } from 'react';
import type { Result } from '../../../../core/api/index.js';
import { ErrorBanner } from '../../components/index.js';
import { useAction, useCall } from '../../hooks.js';

type Login = Result<'Settings.GetStartAtLogin'>;

/** How this system starts programs at login, as the person's system calls it. */
const MECHANISM_WORDS: Record<Login['mechanism'], string> = {
  'login-item': 'as a login item of your system',
  'xdg-autostart': 'through an autostart file (steward.desktop in your autostart folder)',
  none: '',
};

function loginWords(login: Login): string {
  if (!login.supported) return 'This Steward cannot start itself at login here.';
  const what = login.launches === 'headless' ? 'Steward in the background (steward serve)' : 'the Steward app';
  const how = MECHANISM_WORDS[login.mechanism];
  return `Starts ${what} when you log in to this computer${how ? `, ${how}` : ''}.`;
}

/**
 * Start at login, off until the person turns it on: a checkbox, what it does on this system (a login
 * item, an XDG autostart file), and the owner's own answer after each change. Settings and the first
 * run show the same one.
 */
export function StartAtLoginChoice(): ReactElement {
  const login = useCall('Settings.GetStartAtLogin', {});
  const setLogin = useAction('Settings.SetStartAtLogin');
  const now = setLogin.data ?? login.data;
  return (
    <>
      <ErrorBanner title="Start at login could not be read." error={login.error} onRetry={login.reload} />
      {now && (
        <div className="settings-form" data-testid="start-at-login">
          <label className="settings-check">
            <input type="checkbox" checked={now.enabled} disabled={!now.supported || setLogin.busy} onChange={(e) => void setLogin.run({ enabled: e.currentTarget.checked })} /> Start Steward when I log in
          </label>
          <p className="field__hint">
            {loginWords(now)} {now.message ?? ''} Off unless you turn it on.
          </p>
          <ErrorBanner title="Start at login could not be changed." error={setLogin.error} />
        </div>
      )}
    </>
  );
}
