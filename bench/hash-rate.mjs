// The machine's raw password-hash rate for bench/auth.mjs: PBKDF2-SHA256 with the service's parameters (16-byte
// salt, 32-byte key) through the libuv pool (`crypto.pbkdf2`, async, as the login does), `concurrency` hashes in
// flight for `seconds`. Receives its parameters over IPC and sends back hashes/s and CPU µs per hash.
import { pbkdf2, randomBytes } from 'node:crypto';

process.once('message', ({ password, iterations, concurrency, seconds }) => {
  const windowMs = seconds * 1000;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let inWindow = 0;
  let total = 0;
  let inFlight = 0;

  function hashOne() {
    inFlight++;
    pbkdf2(password, randomBytes(16), iterations, 32, 'sha256', (error) => {
      if (error) throw error;
      inFlight--;
      total++;
      if (performance.now() - start > windowMs) {
        if (inFlight === 0) finish();
        return;
      }
      inWindow++;
      hashOne();
    });
  }

  function finish() {
    const cpu = process.cpuUsage(cpuBefore);
    process.send(
      { result: { perSecond: inWindow / seconds, cpuUsPerHash: (cpu.user + cpu.system) / total } },
      () => process.exit(0),
    );
  }

  for (let i = 0; i < concurrency; i++) hashOne();
});
