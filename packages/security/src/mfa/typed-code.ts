/**
 * How a typed code is read before it is compared (TOTP at login, binding and re-authentication; SMS at login, SMS
 * login and a new number; recovery codes). Authenticator apps show `123 456`, and a pasted code often brings a
 * tab or a line break, so ASCII whitespace anywhere in it is dropped: the WHATWG Infra set (tab, line feed, form
 * feed, carriage return, space). Nothing else is: no-break, thin, narrow or ideographic spaces and digits of other
 * scripts or widths stay, and such input is a wrong code like any other. Dropping separators adds no guesses: the
 * digits compared are the same.
 */
const ASCII_WHITESPACE = /[\t\n\f\r ]/g;

/** `typed` without its ASCII whitespace. @example withoutAsciiWhitespace(' 123 456\n') // '123456' */
export const withoutAsciiWhitespace = (typed: string): string => typed.replace(ASCII_WHITESPACE, '');
