import type { ComponentType } from 'react';
import { createElement, lazy } from 'react';

/** A screen, loaded together with the data layer it fetches through (both at once, no waterfall). */
export const screen = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(async () => {
    const [module, { QueryProvider }] = await Promise.all([load(), import('../lib/query-client')]);
    const Screen = module[name];
    return { default: () => createElement(QueryProvider, null, createElement(Screen)) };
  });
