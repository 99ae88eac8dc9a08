import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { emailSchema } from '@bmet/shared/schemas/common';
import { loadToolConfig } from '../config';
import { openDatabase } from '../db/client';
import { accounts } from '../db/schema';
import { findAccountByEmail } from '../modules/auth/repository';
import { checkPasswordPolicy, hashPassword } from '../modules/auth/password';
import { clearAdminSecondFactor } from '../modules/auth/second-factor';

const usage = `Usage: npm run create-admin -- --email admin@example.in [--name "Display Name"]
Creates an admin account (the first one of a production install). The password is read from
ADMIN_PASSWORD, or asked for when run in a terminal.

       npm run create-admin -- --email admin@example.in --clear-second-factor
Clears the second factor of an admin who lost it (and ends their sessions): they set up a new one
at their next sign-in. Run it with the server stopped on the embedded database.`;

/** Asks for a password without echoing it. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput;
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
      write.call(rl, s.startsWith(question) ? s : '');
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      'clear-second-factor': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || !values.email) {
    console.log(usage);
    process.exitCode = values.help ? 0 : 1;
    return;
  }
  const email = emailSchema.safeParse(values.email);
  if (!email.success) throw new Error(`--email: ${email.error.issues[0]?.message}`);

  if (values['clear-second-factor']) {
    const config = loadToolConfig();
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      const outcome = await clearAdminSecondFactor(database.db, email.data);
      const said = {
        cleared: `The second factor of ${email.data} was cleared; they set up a new one at their next sign-in.`,
        none: `${email.data} has no second factor: nothing to clear.`,
        'not-admin': `${email.data} is not an admin: an admin clears it on the update password screen.`,
        unknown: `No account uses ${email.data}.`,
      }[outcome];
      if (outcome === 'cleared' || outcome === 'none') console.log(said);
      else throw new Error(said);
    } finally {
      await database.close();
    }
    return;
  }

  let password = process.env.ADMIN_PASSWORD;
  if (!password) {
    if (!process.stdin.isTTY) throw new Error('Set ADMIN_PASSWORD or run in a terminal to type it.');
    password = await askHidden('Password: ');
    if ((await askHidden('Repeat password: ')) !== password) throw new Error('The passwords differ.');
  }
  const problem = checkPasswordPolicy(password);
  if (problem) throw new Error(problem);

  const config = loadToolConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (await findAccountByEmail(database.db, email.data)) {
      throw new Error(`An account with ${email.data} exists already.`);
    }
    await database.db.insert(accounts).values({
      email: email.data,
      displayName: values.name ?? null,
      role: 'admin',
      passwordHash: await hashPassword(password),
    });
    console.log(`Admin ${email.data} created. Sign in on the Admin tab.`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
