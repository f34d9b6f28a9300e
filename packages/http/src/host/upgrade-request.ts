/**
 * Which requests Node hands to the listener's `upgrade` event. Once a listener is attached (the realtime hub),
 * Node hands it every request carrying `Connection: Upgrade` and an `Upgrade` header, whatever its path or
 * protocol: the `Upgrade: h2c` that `curl --http2` adds to a plain request, or a WebSocket upgrade aimed at an API
 * route. The hub's listener replays such a request through the app as a GET without its body and writes back only
 * the status and envelope, so a POST lost its body and its answer, a GET its answer, and neither passed the
 * listener's first stage. A server may ignore `Upgrade` (RFC 9110 §7.8): every request but the ones `accept`
 * takes is served as the plain HTTP/1.1 request it also is. Node decides by reading `request.upgrade` once the
 * request line and headers are parsed; the request class below answers that read.
 */
import { IncomingMessage } from 'node:http';

/** The upgrade Node's parser saw, kept apart from the answer Node reads. */
const ASKED = Symbol('upgradeAsked');

/**
 * A request class for `createServer({ IncomingMessage })` whose `upgrade` is true only for a CONNECT or for a
 * request `accept` takes (headers and URL are parsed when Node asks).
 * @example createServer({ IncomingMessage: upgradeOnlyFor(isHubUpgrade) }, listener)
 */
export function upgradeOnlyFor(accept: (request: IncomingMessage) => boolean): typeof IncomingMessage {
  class UpgradeOnlyFor extends IncomingMessage {}
  // An accessor on the prototype: IncomingMessage assigns `upgrade` in its constructor and the parser after it.
  Object.defineProperty(UpgradeOnlyFor.prototype, 'upgrade', {
    configurable: true,
    get(this: IncomingMessage & { [ASKED]?: unknown }): boolean {
      return this[ASKED] === true && (this.method === 'CONNECT' || accept(this));
    },
    set(this: { [ASKED]?: unknown }, value: unknown) {
      this[ASKED] = value;
    },
  });
  return UpgradeOnlyFor;
}

/**
 * Whether Node asked about an upgrade of this request and the request class declined it (an `Upgrade: h2c`, a
 * WebSocket upgrade of another path). Node's parser stops at such a request, so anything the client pipelined behind
 * it in the same packet is never read: its response closes the connection, and the client sends the rest again.
 */
export function declinedUpgrade(request: IncomingMessage): boolean {
  const asked = request as IncomingMessage & { [ASKED]?: unknown; upgrade?: boolean };
  return asked[ASKED] === true && !asked.upgrade;
}
