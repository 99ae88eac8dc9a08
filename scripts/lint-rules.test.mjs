import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rules an import in a file at `path` breaks, as lint reports them. */
async function brokenRules(path, source) {
  const [result] = await eslint.lintText(source, { filePath: `${root}${path}` });
  return result.messages.map((message) => message.ruleId);
}

describe('the layers lint holds', () => {
  it('refuses an API floor importing a floor above it', async () => {
    const upward =
      "import { findActiveSession } from '../plugins/authentication';\nvoid findActiveSession;\n";
    expect(await brokenRules('apps/api/src/lib/new-helper.ts', upward)).toContain(
      'import-x/no-restricted-paths',
    );
    const fine = "import { findActiveSession } from '../lib/sessions';\nvoid findActiveSession;\n";
    expect(await brokenRules('apps/api/src/plugins/new-plugin.ts', fine)).toEqual([]);
  }, 60_000);

  it('refuses an import circle', async () => {
    // lib/download-tickets.ts imports lib/sessions.ts: sessions importing it back closes a circle.
    const back = "import { issueDownloadTicket } from './download-tickets';\nvoid issueDownloadTicket;\n";
    expect(await brokenRules('apps/api/src/lib/sessions.ts', back)).toContain('import-x/no-cycle');
  }, 60_000);

  it('refuses product code importing a test helper; a test may', async () => {
    const helper = "import { useTestApp } from '../../../test/test-app';\nvoid useTestApp;\n";
    expect(await brokenRules('apps/api/src/modules/trips/new-file.ts', helper)).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await brokenRules('apps/api/src/modules/trips/new-file.test.ts', helper)).toEqual([]);
  }, 60_000);

  it('refuses a web feature importing another feature', async () => {
    const other = "import { useTrips } from '../trips/api';\nvoid useTrips;\n";
    expect(await brokenRules('apps/web/src/features/drivers/new-file.ts', other)).toContain(
      'import-x/no-restricted-paths',
    );
  }, 60_000);
});
