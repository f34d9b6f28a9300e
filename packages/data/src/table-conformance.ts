/**
 * A compile-time check for a module's tables on several dialects: `TablesConform<typeof sqlite, typeof pg>` is
 * `true` when both sets have the same keys and each table's `$inferSelect` row is the same type, and otherwise
 * names what differs. Write `const check: TablesConform<A, B> = true;` in a file the build compiles.
 */

/** Strict type equality (distinguishes `any`, optional and readonly differences). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type RowOf<T> = T extends { $inferSelect: infer R } ? { [P in keyof R]: R[P] } : never;

/** `true`, or the keys whose rows differ (or that only one side has). */
export type TablesConform<A, B> = [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never]
  ? { [K in keyof A & keyof B]: Equals<RowOf<A[K]>, RowOf<B[K]>> extends true ? never : K }[keyof A &
      keyof B] extends never
    ? true
    : {
        differs: {
          [K in keyof A & keyof B]: Equals<RowOf<A[K]>, RowOf<B[K]>> extends true ? never : K;
        }[keyof A & keyof B];
      }
  : { onlyOneSide: Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A> };
