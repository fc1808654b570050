import type { ReactElement } from 'react';

/** Line icons drawn on a 24-unit grid; they inherit the text colour and size with the text. */
const PATHS = {
  home: 'M4 11.5 12 4.5l8 7M6.5 9.5v10h4v-5.5h3v5.5h4v-10',
  search: 'M10.5 17.5a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM15.5 15.5l5 5',
  projects: 'M3.5 7.5a2 2 0 0 1 2-2h4l2 2h7a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-13a2 2 0 0 1-2-2z',
  maintenance: 'M4.5 6.5c0-1.4 3.4-2.5 7.5-2.5s7.5 1.1 7.5 2.5-3.4 2.5-7.5 2.5-7.5-1.1-7.5-2.5zM4.5 6.5v5.5c0 1.4 3.4 2.5 7.5 2.5s7.5-1.1 7.5-2.5V6.5M4.5 12v5.5c0 1.4 3.4 2.5 7.5 2.5s7.5-1.1 7.5-2.5V12',
  conflicts: 'M7 4v9M7 13a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM17 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM17 11c0 4-4 4-8.5 6.5',
  telemetry: 'M3.5 12.5h4l2.5-6 4 11 2.5-5h4',
  settings: 'M5 6.5h8M17 6.5h2M5 12h2M11 12h8M5 17.5h10M19 17.5h0M15 4.5v4M9 10v4M17 15.5v4',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  info: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 11v5.5M12 7.6v.1',
  alert: 'M12 4 2.8 19.5h18.4zM12 10v4.5M12 17.2v.1',
  pause: 'M9 6v12M15 6v12',
  play: 'M8 5.5v13l10.5-6.5z',
  key: 'M14.5 9.5a4 4 0 1 1-8 0 4 4 0 0 1 8 0zM13.5 12.5l6.5 6.5M17 16l2-2',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className }: { name: IconName; className?: string }): ReactElement {
  return (
    <svg className={className ? `icon ${className}` : 'icon'} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} />
    </svg>
  );
}
