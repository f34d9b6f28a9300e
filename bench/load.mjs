// One load run of bench/auth.mjs in a process of its own, so that the load generator's CPU is never the server's:
// receives autocannon options over IPC, sends back the summary the benchmark prints.
import autocannon from 'autocannon';

process.once('message', (options) => {
  autocannon(options, (error, result) => {
    const answer = error
      ? { error: String(error.stack ?? error) }
      : {
          result: {
            completed: result.requests.total,
            sent: result.requests.sent,
            seconds: result.duration,
            p50: result.latency.p50,
            p99: result.latency.p99,
            statuses: Object.fromEntries(
              Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
            ),
            errors: result.errors,
            timeouts: result.timeouts,
          },
        };
    process.send(answer, () => process.exit(error ? 1 : 0));
  });
});
