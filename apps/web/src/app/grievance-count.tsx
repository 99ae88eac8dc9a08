import { useEffect, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import type { grievanceSummaryResponseSchema } from '@bmet/shared/schemas/grievance';
import { apiRequest } from '../lib/api-client';
import classes from './layout.module.css';

/** Asked again at most this often while staff move between screens (and when the tab returns). */
const REFRESH_MS = 60_000;

type Counts = { overdue: number; dueSoon: number };

/**
 * How many grievances in the caller's scope are overdue or due within a day, beside the
 * Grievances link. The link's name stays "Grievances"; how many of each is its description for
 * screen readers.
 */
export function GrievanceCount({ id, path }: { id: string; path: string }) {
  const [counts, setCounts] = useState<Counts | null>(null);
  const [askedAt, setAskedAt] = useState(0);

  useEffect(() => {
    const ask = () => {
      if (Date.now() - askedAt < REFRESH_MS) return;
      setAskedAt(Date.now());
      apiRequest<typeof grievanceSummaryResponseSchema>('GET', '/grievances/summary')
        .then(({ data }) => setCounts({ overdue: data.overdue, dueSoon: data.dueSoon }))
        .catch(() => setCounts(null));
    };
    ask();
    window.addEventListener('focus', ask);
    return () => window.removeEventListener('focus', ask);
  }, [askedAt, path]);

  const count = counts ? counts.overdue + counts.dueSoon : 0;
  if (!counts || !count) return null;
  return (
    <>
      <span className={classes.navCount} aria-hidden>
        {count > 99 ? '99+' : count}
      </span>
      <span id={id} hidden>
        {m.grievanceNavCount({ overdue: counts.overdue, dueSoon: counts.dueSoon })}
      </span>
    </>
  );
}
