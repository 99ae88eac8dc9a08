import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { apiRequest } from '../lib/api-client';
import classes from './layout.module.css';

/** What a count beside a link asks for, and how it reads it. */
export type NavCountSource<S extends z.ZodType> = {
  /** The API path asked (under /api). */
  path: string;
  /** Asked again at most this often while staff move between screens (and when the tab returns). */
  refreshMs: number;
  /** The number shown from the answer. */
  count: (answer: z.output<S>) => number;
  /** The count said in words, for screen readers. */
  describe: (answer: z.output<S>) => string;
};

/**
 * A count in red beside a navigation link (documents to review, grievances due, open alerts),
 * asked again as staff move between screens. The link's name stays; the count in words is its
 * description for screen readers (the element with `id`). Nothing shows when it is 0 or the
 * question failed.
 */
export function NavCount<S extends z.ZodType>({
  id,
  path,
  source,
}: {
  id: string;
  path: string;
  source: NavCountSource<S>;
}) {
  const [answer, setAnswer] = useState<z.output<S> | null>(null);
  const [askedAt, setAskedAt] = useState(0);

  useEffect(() => {
    const ask = () => {
      if (Date.now() - askedAt < source.refreshMs) return;
      setAskedAt(Date.now());
      apiRequest<S>('GET', source.path)
        .then((answer) => setAnswer(answer as z.output<S>))
        .catch(() => setAnswer(null));
    };
    ask();
    window.addEventListener('focus', ask);
    return () => window.removeEventListener('focus', ask);
  }, [askedAt, path, source]);

  const count = answer ? source.count(answer) : 0;
  if (!answer || !count) return null;
  return (
    <>
      <span className={classes.navCount} aria-hidden>
        {count > 99 ? '99+' : count}
      </span>
      <span id={id} hidden>
        {source.describe(answer)}
      </span>
    </>
  );
}
