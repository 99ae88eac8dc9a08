import { useEffect, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import type { complianceSummaryResponseSchema } from '@bmet/shared/schemas/compliance';
import { apiRequest } from '../lib/api-client';
import classes from './layout.module.css';

/** Asked again at most this often while staff move between screens (and when the tab returns). */
const REFRESH_MS = 60_000;

/**
 * How many documents need attention now (expired, or awaiting review), beside the Compliance link.
 * The link's name stays "Compliance"; the count is its description for screen readers.
 */
export function ComplianceCount({ id, path }: { id: string; path: string }) {
  const [count, setCount] = useState<number | null>(null);
  const [askedAt, setAskedAt] = useState(0);

  useEffect(() => {
    const ask = () => {
      if (Date.now() - askedAt < REFRESH_MS) return;
      setAskedAt(Date.now());
      apiRequest<typeof complianceSummaryResponseSchema>('GET', '/compliance/summary')
        .then(({ data }) => setCount(data.expired + data.awaitingReview))
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
        {m.navComplianceCount({ count })}
      </span>
    </>
  );
}
