import axe from 'axe-core';
import type { Page } from '@playwright/test';

/** The rules judged: WCAG 2.1 A and AA. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Those of them whose verdict a colour scheme can change: the contrast of text, and links told
 * from the text around them by colour. The others read the page's structure, names and roles,
 * which are the same in both schemes.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

type AxeWindow = { axe?: typeof axe };

/**
 * axe-core's serious and critical violations of WCAG 2.1 A and AA on the page as it is now, or only
 * within the parts `within` selects (a dialog and the header that opens it, say). With `colours`,
 * only the rules a colour scheme can change (for a page already judged whole in the other scheme).
 *
 * axe-core runs in the page itself, injected once per document, rather than through
 * `@axe-core/playwright`'s builder: the builder injects it again on every call and finishes each
 * run in a new blank page, about 1.5 s a call on a machine of this kind against 0.5 s for the run
 * itself, and the console has no frames for it to reach into. Only violations are detailed.
 */
export async function seriousViolations(
  page: Page,
  within: string[] = [],
  { colours = false }: { colours?: boolean } = {},
) {
  if (!(await page.evaluate(() => Boolean((window as AxeWindow).axe)))) await page.evaluate(axe.source);
  return page.evaluate(
    async ({ tags, rules, within }) => {
      const results = await (window as AxeWindow).axe!.run(within.length ? { include: within } : document, {
        runOnly: rules ? { type: 'rule', values: rules } : { type: 'tag', values: tags },
        resultTypes: ['violations'],
        iframes: false,
      });
      return results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({
          rule: violation.id,
          nodes: violation.nodes
            .slice(0, 5)
            .map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
          count: violation.nodes.length,
        }));
    },
    { tags: WCAG_21_AA, rules: colours ? COLOUR_RULES : null, within },
  );
}
