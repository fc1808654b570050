import { useState, type ReactElement } from 'react';
import { Button } from './Button.js';
import './copy-button.css';

/** Copies `text` and says so beside the button (or says how to copy it by hand where copying is refused). */
export function CopyButton({ text, label = 'Copy', what }: { text: string; label?: string; what: string }): ReactElement {
  const [said, setSaid] = useState<string | undefined>();
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setSaid(`Copied ${what}.`),
      () => setSaid(`Copying is not allowed here: select ${what} and copy it.`),
    );
  };
  return (
    <span className="copy-button">
      <Button variant="quiet" onClick={copy} aria-label={`${label} ${what}`}>
        {label}
      </Button>
      {said !== undefined && (
        <span role="status" className="copy-button__said">
          {said}
        </span>
      )}
    </span>
  );
}
