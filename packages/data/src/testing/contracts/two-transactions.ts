/**
 * What the contracts that set two transactions against each other share (deadlock.contract.ts,
 * row-lock.contract.ts): a promise one waits on until the other opens it, and two fresh rows to lock.
 */
import type { Database } from '../../database.js';

/** A promise to wait on and the function that resolves it. */
export function latch(): { open: () => void; opened: Promise<void> } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** Two fresh `sys_org` rows (`sort` 0) named after `prefix`: their ids. */
export async function twoOrgRows(database: Database, prefix: string): Promise<[number, number]> {
  const { adapter, db, tables } = database;
  const row = (name: string) => ({ name: `${prefix}${name}`, code: `${prefix}${name}`, sort: 0 });
  return [
    await adapter.insertReturningId(db, tables.sysOrg, row('a')),
    await adapter.insertReturningId(db, tables.sysOrg, row('b')),
  ];
}
