import { useEffect, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import type { sosListResponseSchema } from '@bmet/shared/schemas/sos';
import { apiRequest } from '../lib/api-client';
import classes from './layout.module.css';

/** Asked again at most this often while staff move between screens (and when the tab returns). */
const REFRESH_MS = 15_000;

/**
 * How many SOS alerts are open (not yet resolved), in red beside the control room's link. The
 * link's name stays; the count is its description for screen readers.
 */
export function SosCount({ id, path }: { id: string; path: string }) {
  const [count, setCount] = useState<number | null>(null);
  const [askedAt, setAskedAt] = useState(0);

  useEffect(() => {
    const ask = () => {
      if (Date.now() - askedAt < REFRESH_MS) return;
      setAskedAt(Date.now());
      apiRequest<typeof sosListResponseSchema>('GET', '/sos?status=open&limit=1')
        .then(({ total }) => setCount(total))
        .catch(() => setCount(null));
    };
    ask();
    window.addEventListener('focus', ask);
    return () => window.removeEventListener('focus', ask);
  }, [askedAt, path]);

  if (!count) return null;
  return (
    <>
      <span className={classes.navCount} aria-hidden>
        {count > 99 ? '99+' : count}
      </span>
      <span id={id} hidden>
        {m.sosNavCount({ count })}
      </span>
    </>
  );
}
