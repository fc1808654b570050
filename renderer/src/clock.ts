import { useEffect, useState } from 'react';

/** The time, advancing every `everyMs`, so relative times ("3 minutes ago", "Running for…") keep moving. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
