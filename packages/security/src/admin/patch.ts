/** The fields of an update: each may be left out (or `undefined`), and then keeps its stored value. */
export type Patch<T> = { [K in keyof T]?: T[K] | undefined };
