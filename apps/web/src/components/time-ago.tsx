import { useEffect, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';

/** How long ago a moment was, in words, kept current every second. */
export function formatAge(from: Date, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  if (seconds < 5) return m.commonJustNow();
  if (seconds < 60) return m.commonSecondsAgo({ seconds });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return m.commonMinutesAgo({ minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return m.commonHoursAgo({ hours });
  return m.commonDaysAgo({ days: Math.floor(hours / 24) });
}

export function TimeAgo({ iso }: { iso: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <time dateTime={iso}>{formatAge(new Date(iso), now)}</time>;
}
