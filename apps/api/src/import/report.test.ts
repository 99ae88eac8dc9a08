import { describe, expect, it } from 'vitest';
import { createReport, formatReport, skip } from './report';
import { describeFailure } from './sections';

describe('the report in a terminal', () => {
  it('shows a hostile key’s control characters and reordering marks as escapes, never as themselves', () => {
    const report = createReport(false);
    skip(report, 'drivers', '\u001b[2J\u001b[Hforged\nline\u202e', 'not a driver record (number 42)');
    const text = formatReport(report);
    expect(text).toContain(
      '  Drivers \\u001b[2J\\u001b[Hforged\\u000aline\\u202e: not a driver record (number 42)',
    );
    const unsafe = [...text].filter((char) => char !== '\n' && /[\p{Cc}\u202e]/u.test(char));
    expect(unsafe).toEqual([]);
  });
});

describe('why a run stopped', () => {
  it('is the database’s own message, not the query wrapped around it, on one line', () => {
    const refused = Object.assign(new Error('null value in column "amount"\nviolates not-null constraint'), {
      code: '23502',
      severity: 'ERROR',
    });
    const wrapped = new Error(`Failed query: insert into ... ${'x'.repeat(10_000)}`, { cause: refused });
    expect(describeFailure(wrapped)).toEqual({
      reason:
        'the database answered "null value in column "amount" violates not-null constraint" (SQLSTATE 23502)',
      expected: true,
    });
  });

  it('says a fault of the import’s own is unexpected', () => {
    expect(describeFailure(new TypeError('x is undefined'))).toEqual({
      reason: 'TypeError: x is undefined',
      expected: false,
    });
  });
});
