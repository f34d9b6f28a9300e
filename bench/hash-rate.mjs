// The machine's raw password-hash rate for bench/auth.mjs: PBKDF2-SHA256 with the service's parameters (16-byte
// salt, 32-byte key) through the libuv pool (`crypto.pbkdf2`, async, as the login does), `concurrency` hashes in
// flight for `seconds`. Receives its parameters over IPC and sends back hashes/s, CPU µs per hash and the median
// time of one hash from its start to its callback (with one in flight: the time of one hash).
import { pbkdf2, randomBytes } from 'node:crypto';

process.once('message', ({ password, iterations, concurrency, seconds }) => {
  const windowMs = seconds * 1000;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let inWindow = 0;
  let total = 0;
  let inFlight = 0;
  const times = [];

  function hashOne() {
    inFlight++;
    const began = performance.now();
    pbkdf2(password, randomBytes(16), iterations, 32, 'sha256', (error) => {
      if (error) throw error;
      times.push(performance.now() - began);
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
    times.sort((a, b) => a - b);
    const msMedian = times[Math.floor(times.length / 2)] ?? Number.NaN;
    process.send(
      { result: { perSecond: inWindow / seconds, cpuUsPerHash: (cpu.user + cpu.system) / total, msMedian } },
      () => process.exit(0),
    );
  }

  for (let i = 0; i < concurrency; i++) hashOne();
});
