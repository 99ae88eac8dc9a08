import { z } from 'zod';

const plural = (n: number | bigint, word: string) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;

/**
 * Default validation messages written for people (zod's own are written for developers). Fields
 * with a message of their own keep it. Both the API and the web app load this with the schemas.
 */
export const humanErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'This field is required.';
      return `Expected ${issue.expected === 'number' ? 'a number' : issue.expected === 'string' ? 'text' : issue.expected}.`;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? 'This field is required.'
          : `Must be at least ${plural(issue.minimum, 'character')}.`;
      if (issue.origin === 'array') return `Choose at least ${issue.minimum}.`;
      return `Must be ${issue.inclusive === false ? 'more than' : 'at least'} ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Must be at most ${plural(issue.maximum, 'character')}.`;
      if (issue.origin === 'array') return `Choose at most ${issue.maximum}.`;
      return `Must be ${issue.inclusive === false ? 'less than' : 'at most'} ${issue.maximum}.`;
    case 'invalid_value':
      return `Must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_format':
      return issue.format === 'uuid'
        ? 'Not a valid id.'
        : issue.format === 'email'
          ? 'Enter a valid email address.'
          : 'Invalid format.';
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}.`;
    default:
      return undefined;
  }
};

z.config({ customError: humanErrorMap });
