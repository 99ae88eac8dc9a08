import { z } from 'zod';
import { m } from './paraglide/messages.js';

/**
 * Default validation messages written for people (zod's own are written for developers), in the
 * language of the request or of the screen. Fields with a message of their own keep it. Both the
 * API and the web app load this with the schemas.
 */
export const humanErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return m.fieldRequired();
      if (issue.expected === 'number') return m.expectedNumber();
      if (issue.expected === 'string') return m.expectedText();
      return m.expectedType({ type: issue.expected });
    case 'too_small': {
      const count = Number(issue.minimum);
      if (issue.origin === 'string') return count <= 1 ? m.fieldRequired() : m.atLeastCharacters({ count });
      if (issue.origin === 'array') return m.chooseAtLeast({ count });
      const value = String(issue.minimum);
      return issue.inclusive === false ? m.mustBeMoreThan({ value }) : m.mustBeAtLeast({ value });
    }
    case 'too_big': {
      const count = Number(issue.maximum);
      if (issue.origin === 'string') return m.atMostCharacters({ count });
      if (issue.origin === 'array') return m.chooseAtMost({ count });
      const value = String(issue.maximum);
      return issue.inclusive === false ? m.mustBeLessThan({ value }) : m.mustBeAtMost({ value });
    }
    case 'invalid_value':
      return m.mustBeOneOf({ values: issue.values.map(String).join(', ') });
    case 'invalid_format':
      if (issue.format === 'uuid') return m.notValidId();
      if (issue.format === 'email') return m.enterValidEmail();
      return m.invalidFormat();
    case 'unrecognized_keys':
      return m.unknownFields({ count: issue.keys.length, keys: issue.keys.join(', ') });
    default:
      return undefined;
  }
};

z.config({ customError: humanErrorMap });
