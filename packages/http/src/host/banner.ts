/**
 * The one-time banner that shows the generated super-admin password in the run that created the account.
 */
export function seedPasswordBanner(account: string, password: string): string {
  const lines = [
    'FIRST START: the super-admin account was created.',
    '',
    `  Account : ${account}`,
    `  Password: ${password}`,
    '',
    'This password is shown once and never again. Store it now and change it after the first login.',
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const rule = '*'.repeat(width);
  return ['', rule, ...lines.map((l) => `* ${l.padEnd(width - 4)} *`), rule, ''].join('\n');
}
