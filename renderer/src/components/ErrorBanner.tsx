import type { ReactElement } from 'react';
import { Button } from './Button.js';
import { Icon } from './Icon.js';
import { plainText } from './words.js';
import './error-banner.css';

export interface ErrorBannerProps {
  /** A short sentence saying what could not be done. */
  title: string;
  error: Error | string | undefined;
  onRetry?: () => void;
}

/** The typed `code` (from the contract's `data.code`) is shown so a report can name it. */
export function ErrorBanner({ title, error, onRetry }: ErrorBannerProps): ReactElement | null {
  if (error === undefined) return null;
  // Owners' messages may name a command in Markdown's code marks; the banner shows the words.
  const message = plainText(typeof error === 'string' ? error : error.message);
  const code = typeof error === 'string' ? undefined : (error as { code?: unknown }).code;
  return (
    <div className="error-banner" role="alert">
      <Icon name="alert" className="error-banner__icon" />
      <div className="error-banner__text">
        <strong>{title}</strong>
        <span>{message}</span>
        {typeof code === 'string' && <span className="error-banner__code">Code: {code}</span>}
      </div>
      {onRetry && (
        <Button onClick={onRetry}>Try again</Button>
      )}
    </div>
  );
}
