/**
 * A module's own realtime messages, as a consumer writes one: the module declares its kind (`realtimeKinds`),
 * reaches module `Realtime` through `optional` + `useOptional`, and publishes to users or to everyone; a connected
 * WebSocket client of a recipient gets `{type: kind, data}`, others nothing. A kind nobody declares is refused
 * (a programming error); with Realtime off the module's publisher is absent and nothing goes out.
 */

import type { DbType } from '@svc/kernel';
import { REALTIME_CHANNEL, type RealtimeEvent } from '@svc/modules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningServer, listen } from '../../host/listen.js';
import { defineModule } from '../../module/define.js';
import { login } from '../../testing/auth.js';
import {
  grantPermissions,
  startTestServer,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';
import { connectHub, hubOf } from './client.contract.js';
import { realtimeModule } from './index.js';

const PAID = 'shop-order-paid';
const SALE = 'shop-sale';

interface ShopServices {
  /** Whether Realtime was on when the module was built. */
  live: boolean;
  paid(userId: number, orderId: number): Promise<void>;
  sale(percent: number): Promise<void>;
  /** Publishes a kind the module never declared. */
  undeclared(): Promise<void>;
}

const shopModule = defineModule({
  name: 'Shop',
  optional: [realtimeModule],
  realtimeKinds: [PAID, SALE],
  services: ({ useOptional }): ShopServices => {
    const realtime = useOptional(realtimeModule);
    return {
      live: realtime !== undefined,
      paid: async (userId, orderId) => realtime?.publish(PAID, { userIds: [userId] }, { orderId }),
      sale: async (percent) => realtime?.publish(SALE, { all: true }, { percent }),
      undeclared: async () => realtime?.publish('shop-undeclared', { all: true }, null),
    };
  },
});

export function defineModuleMessagesContract(dbType: DbType): void {
  describe(`a module's realtime messages on ${dbType}`, () => {
    let t: TestServer;
    let running: ListeningServer;
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        modules: [shopModule],
        env: { Service__Realtime__Enabled: 'true', Service__Security__RateLimit__Enabled: 'false' },
      });
      running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
      for (const account of ['mm_ada', 'mm_bob'])
        ids[account] = await grantPermissions(t, { account, permissions: [] });
    });
    afterAll(async () => {
      await running?.shutdown();
      await t?.close();
    });
    const connect = async (account: string) =>
      connectHub(running.url, { token: (await login(t, account, TEST_USER_PASSWORD)).accessToken });

    it('reaches the sockets of its recipients, and every socket when sent to all', async () => {
      const shop = t.server.modules.servicesOf(shopModule);
      expect(shop.live).toBe(true);
      const ada = await connect('mm_ada');
      const bob = await connect('mm_bob');
      await shop.paid(ids.mm_ada as number, 7);
      expect(await ada.next()).toEqual({ type: PAID, data: { orderId: 7 } });
      await shop.sale(20);
      // Bob's first message is the sale: the order message for Ada never reached him.
      expect(await bob.next()).toEqual({ type: SALE, data: { percent: 20 } });
      expect(await ada.next()).toEqual({ type: SALE, data: { percent: 20 } });
      ada.close();
      bob.close();
      await Promise.all([ada.closed, bob.closed]);
    });

    it('refuses a kind no module declares, and one of the hub itself', async () => {
      const shop = t.server.modules.servicesOf(shopModule);
      await expect(shop.undeclared()).rejects.toThrow(/"shop-undeclared" is declared by no enabled module/);
      const realtime = t.server.modules.servicesOf(realtimeModule);
      await expect(realtime.publish('resync', { all: true }, null)).rejects.toThrow(TypeError);
    });
  });

  describe(`a module's realtime messages with Realtime off on ${dbType}`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        modules: [shopModule],
        env: { Service__Realtime__Enabled: 'false' },
      });
    });
    afterAll(() => t?.close());

    it('builds the module without a publisher, and nothing reaches the channel', async () => {
      expect(hubOf(t.server)).toBeUndefined();
      const shop = t.server.modules.servicesOf(shopModule);
      expect(shop.live).toBe(false);
      const seen: RealtimeEvent[] = [];
      const stop = await t.server.cache.subscribe<RealtimeEvent>(REALTIME_CHANNEL, (e) => void seen.push(e));
      try {
        await shop.paid(1, 7);
        await shop.sale(20);
        // A marker sent after them arrives after anything they sent: only the marker came.
        const marker = { to: 'users', kind: 'marker', all: true, userIds: [], data: null } as const;
        await t.server.cache.publish(REALTIME_CHANNEL, marker);
        await expect.poll(() => seen.length).toBe(1);
        expect(seen).toEqual([marker]);
      } finally {
        await stop();
      }
    });
  });
}
