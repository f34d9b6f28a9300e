/**
 * The registry of every code set the running service knows: the kernel's plus each consumer's.
 * Registration is all-or-nothing per set, and a number claimed twice stops start-up naming both claimants.
 */
import { ErrorCode } from './codes.js';
import { type ErrorCodeMember, type ErrorCodeSet, membersOf, SET_NAME } from './define.js';

/** One row of the public catalog (`GET /api/v1/meta/error-codes`, `ErrorCode` schema extensions). */
export interface ErrorCatalogEntry {
  code: number;
  name: string;
  msgKey: string;
  source: string;
}

/** Raised when two sets claim one number. */
export class ErrorCodeConflictError extends Error {
  override readonly name = 'ErrorCodeConflictError';
}

export class ErrorCodeRegistry {
  readonly #byCode = new Map<number, ErrorCodeMember>();
  readonly #sources = new Set<string>();

  /** A registry holding the kernel set and, optionally, consumer sets. */
  constructor(sets: readonly ErrorCodeSet[] = []) {
    this.register(ErrorCode);
    for (const set of sets) this.register(set);
  }

  /**
   * Adds a set. Registering the same set twice is a no-op; a different set claiming a taken number throws,
   * and nothing of the new set is added.
   */
  register(set: ErrorCodeSet): this {
    const source = set[SET_NAME];
    const members = membersOf(set);
    if (this.#sources.has(source) && members.every((m) => this.#byCode.get(m.code) === m)) return this;
    for (const member of members) {
      const taken = this.#byCode.get(member.code);
      if (taken && taken !== member) {
        throw new ErrorCodeConflictError(
          `Error code ${member.code} is claimed by both ${taken.source}.${taken.name} and ${member.source}.${member.name}; ` +
            'give each code set its own segment (consumer codes start at 60000).',
        );
      }
    }
    for (const member of members) this.#byCode.set(member.code, member);
    this.#sources.add(source);
    return this;
  }

  /** The registered member for a number, if any. */
  lookup(code: number): ErrorCodeMember | undefined {
    return this.#byCode.get(code);
  }

  /** True when this exact member (not merely its number) is registered. */
  isRegistered(member: ErrorCodeMember): boolean {
    return this.#byCode.get(member.code) === member;
  }

  /** The msgKey of a code: the member's tag when registered, else `error.code.<code>`. */
  msgKeyOf(code: number): string {
    return this.#byCode.get(code)?.msgKey ?? `error.code.${code}`;
  }

  /** Every registered code, ordered by number. */
  catalog(): ErrorCatalogEntry[] {
    return [...this.#byCode.values()]
      .sort((a, b) => a.code - b.code)
      .map(({ code, name, msgKey, source }) => ({ code, name, msgKey, source }));
  }
}
