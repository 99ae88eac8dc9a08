/** Where a browser-test run on this port keeps its database and mails. */
export function e2eFolder(port: string): string;
