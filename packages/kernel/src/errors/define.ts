/**
 * Error codes are declared once, as data: a code set is a named group of members, each with a number and the
 * msgKey the frontend translates. Kernel and consumer sets have the same shape, so the registry treats them alike.
 */

/** One member of a code set. Thrown through `BusinessError`, rendered into the envelope. */
export interface ErrorCodeMember {
  readonly code: number;
  readonly name: string;
  readonly msgKey: string;
  /** Name of the set that declares the member: `ErrorCode` for the kernel, else the consumer's set name. */
  readonly source: string;
}

/** Declaration of one member before it is bound to its set. */
export interface ErrorCodeSpec {
  readonly code: number;
  readonly msgKey: string;
}

/** A declared code set: its members by name, plus the set's own name. */
export type ErrorCodeSet<K extends string = string> = { readonly [P in K]: ErrorCodeMember } & {
  readonly [SET_NAME]: string;
};

/** Symbol under which a set keeps its own name, so member names can never collide with it. */
export const SET_NAME: unique symbol = Symbol.for('svc.errorCodeSet');

/**
 * Declares a code set.
 * @example
 * export const SampleErrorCode = defineErrorCodes('SampleErrorCode', {
 *   SampleFailure: { code: 60001, msgKey: 'sample.failure' },
 * });
 */
export function defineErrorCodes<K extends string>(
  source: string,
  members: { readonly [P in K]: ErrorCodeSpec },
): ErrorCodeSet<K> {
  const set = { [SET_NAME]: source } as Record<string | symbol, unknown>;
  const seen = new Map<number, string>();
  for (const [name, spec] of Object.entries<ErrorCodeSpec>(members)) {
    if (!Number.isInteger(spec.code) || spec.code < 0 || spec.code > 0x7fffffff) {
      throw new Error(`Error code ${source}.${name} must be a non-negative int32, got ${spec.code}.`);
    }
    const twin = seen.get(spec.code);
    if (twin) throw new Error(`Error code ${spec.code} is declared twice in ${source}: ${twin} and ${name}.`);
    seen.set(spec.code, name);
    set[name] = Object.freeze({ code: spec.code, name, msgKey: spec.msgKey, source });
  }
  return Object.freeze(set) as ErrorCodeSet<K>;
}

/** The members of a set, in declaration order. */
export function membersOf(set: ErrorCodeSet): ErrorCodeMember[] {
  return Object.values(set) as ErrorCodeMember[];
}
