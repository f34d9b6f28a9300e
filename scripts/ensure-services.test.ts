/**
 * scripts/ensure-services.sh on the machines the README promises, without touching this machine's services: the
 * script is sourced (which runs nothing), its paths point at a scratch folder, and the commands it calls are shell
 * functions that behave as Debian 12's do where it matters: mariadbd refuses to start as root without
 * `--user=mysql` and needs /run/mysqld; pg_ctlcluster needs /run/postgresql; PostgreSQL serves the pg_hba.conf it
 * last read, so trust written after the package started it counts only after a reload. Ports are files.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'ensure-services.sh');
const root = mkdtempSync(join(tmpdir(), 'svc-services-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The only programs on the script's PATH: this machine's real pg_ctlcluster, mariadb or systemctl are never reached.
const BIN = join(root, 'bin');
mkdirSync(BIN);
for (const tool of ['seq', 'ls', 'cat', 'grep', 'mkdir', 'cp', 'touch', 'chmod', 'rm']) {
  const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
  symlinkSync(found, join(BIN, tool));
}

interface Machine {
  /** systemd is the init system. */
  systemd: boolean;
  /** Packages already installed (and configured as this repository's CI image has them). */
  installed: boolean;
  /** Services already listening. */
  running: boolean;
  /** The packages' post-install starts what it installs (with the stock configuration). */
  postinstStarts?: boolean;
  /** Installed, but pg_hba.conf is Debian's stock one (an operator's own machine). */
  stockHba?: boolean;
  /** /run is empty (a container after a restart: no /run/mysqld, no /run/postgresql). */
  emptyRun?: boolean;
  node?: string;
}

const STOCK_HBA = 'local all postgres peer\nhost all all 127.0.0.1/32 scram-sha-256\n';

/** Fakes of the commands the script calls; `$T` is the scratch folder. */
const FAKES = `
log() { echo "$*" >>"$T/calls"; }
up() { mkdir -p "$T/up"; touch "$T/up/$1"; }
port_open() { [ -e "$T/up/$1" ]; }
is_root() { true; }
node() { echo "$NODE_VERSION"; }
sleep() { :; }
install() { log install "$@"; local dir; for dir; do :; done; mkdir -p "$dir"; }
define_installed() {
  eval 'pg_ctlcluster() { log pg_ctlcluster "$@"; fake_pg_ctlcluster "$@"; }'
  eval 'redis-server() { log redis-server "$@"; up 6379; }'
  eval 'chromium() { :; }'
  eval 'psql() { fake_psql "$@"; }'
  eval 'mariadb() { log mariadb "$@"; }'
  eval 'runuser() { log runuser "$@"; }'
  : >"$MARIADBD"; chmod +x "$MARIADBD"
}
fake_pg_ctlcluster() {
  local action
  if [ "$1" = --skip-systemctl-redirect ]; then shift; elif [ -d "$RUN_DIR/systemd/system" ]; then
    systemctl "$3" "postgresql@$1-$2"; return; fi
  action=$3
  case $action in
    start) [ -d "$RUN_DIR/postgresql" ] || { echo 'Error: Cannot stat /var/run/postgresql' >&2; return 1; }
      cp "$PG_ETC/$1/main/pg_hba.conf" "$T/pg-loaded-hba"; up 5432 ;;
    reload) port_open 5432 || return 1; cp "$PG_ETC/$1/main/pg_hba.conf" "$T/pg-loaded-hba" ;;
  esac
}
fake_psql() {
  log psql "$@"
  case " $* " in *" -h 127.0.0.1 "*) grep -q '^host all all 127.0.0.1/32 trust' "$T/pg-loaded-hba" || return 2 ;; esac
  echo 1
}
systemctl() {
  log systemctl "$@"
  case "$1 $2" in
    "start postgresql") cp "$PG_ETC/15/main/pg_hba.conf" "$T/pg-loaded-hba"; up 5432 ;;
    "reload postgresql@15-main") cp "$PG_ETC/15/main/pg_hba.conf" "$T/pg-loaded-hba" ;;
    "start mariadb") up 3306 ;;
    "start redis-server") up 6379 ;;
  esac
}
start-stop-daemon() {
  log start-stop-daemon "$@"
  case " $* " in *" --user=mysql "*) ;; *) echo '[ERROR] Fatal error: Please consult the Knowledge Base to find out how to run mysqld as root!' >&2; return 0 ;; esac
  [ -d "$RUN_DIR/mysqld" ] || { echo "Can't start server: can't create PID file" >&2; return 0; }
  up 3306
}
apt-get() {
  log apt-get "$@"
  [ "$1" = install ] || return 0
  mkdir -p "$PG_ETC/15/main"; printf "$STOCK_HBA" >"$PG_ETC/15/main/pg_hba.conf"
  define_installed
  if [ "$POSTINST_STARTS" = 1 ]; then cp "$PG_ETC/15/main/pg_hba.conf" "$T/pg-loaded-hba"; up 5432; up 3306; up 6379; fi
}
`;

function run(name: string, machine: Machine) {
  const T = join(root, name);
  const script = `
set -u
T=${JSON.stringify(T)}; mkdir -p "$T"
NODE_VERSION=${JSON.stringify(machine.node ?? '20.20.2')}
POSTINST_STARTS=${machine.postinstStarts ? 1 : 0}
STOCK_HBA=${JSON.stringify(STOCK_HBA)}
source ${JSON.stringify(SCRIPT)}
PG_ETC="$T/etc/postgresql"; MARIADBD="$T/mariadbd"; RUN_DIR="$T/run"; REDIS_DIR="$T/redis"; REDIS_LOG_DIR="$T/redis-log"
WAIT_SECONDS=2
mkdir -p "$RUN_DIR"
${FAKES}
${machine.systemd ? 'mkdir -p "$RUN_DIR/systemd/system"' : ''}
if ${machine.installed ? 'true' : 'false'}; then
  mkdir -p "$PG_ETC/15/main"
  printf ${JSON.stringify(machine.stockHba ? STOCK_HBA : 'host all all 127.0.0.1/32 trust\n')} >"$PG_ETC/15/main/pg_hba.conf"
  cp "$PG_ETC/15/main/pg_hba.conf" "$T/pg-loaded-hba"; define_installed
  ${machine.emptyRun ? '' : 'mkdir -p "$RUN_DIR/mysqld" "$RUN_DIR/postgresql"'}
fi
PATH=${JSON.stringify(BIN)}
${machine.running ? 'up 5432; up 3306; up 6379' : ''}
main
`;
  const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 30_000 });
  const callsFile = join(T, 'calls');
  const calls = existsSync(callsFile) ? readFileSync(callsFile, 'utf8').trim().split('\n') : [];
  const up = (port: number) => existsSync(join(T, 'up', String(port)));
  const hba = () => readFileSync(join(T, 'etc', 'postgresql', '15', 'main', 'pg_hba.conf'), 'utf8');
  const loadedHba = () => readFileSync(join(T, 'pg-loaded-hba'), 'utf8');
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    calls,
    up,
    hba,
    loadedHba,
    T,
  };
}

describe('ensure-services.sh', () => {
  it('changes nothing where everything is installed and running (this machine, CI)', () => {
    const r = run('up', { systemd: false, installed: true, running: true });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/PostgreSQL is up\n.*MariaDB is up\n.*Redis is up/s);
    expect(r.calls.filter((c) => !c.startsWith('psql ') && !c.startsWith('mariadb '))).toEqual([]);
  });

  it('on a fresh Debian 12 container (no systemd, nothing started): installs, trusts, starts MariaDB as mysql', () => {
    const r = run('container', { systemd: false, installed: false, running: false });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.calls[1]).toMatch(/^apt-get install .*postgresql mariadb-server redis-server chromium/);
    expect(r.hba()).toContain('host all all 127.0.0.1/32 trust');
    expect(r.calls).toContain(`install -d -m 2775 -o postgres -g postgres ${r.T}/run/postgresql`);
    expect(r.calls).toContain('pg_ctlcluster --skip-systemctl-redirect 15 main start');
    expect(r.calls).toContain(`install -d -m 0755 -o mysql -g mysql ${r.T}/run/mysqld`);
    expect(r.calls).toContain(
      `start-stop-daemon --start --oknodo --background --pidfile ${r.T}/run/mysqld/mysqld.pid --exec ${r.T}/mariadbd -- --user=mysql`,
    );
    expect([r.up(5432), r.up(3306), r.up(6379)]).toEqual([true, true, true]);
    expect(r.calls).not.toContainEqual(expect.stringMatching(/^systemctl/));
  });

  it('where the packages start what they install (systemd): PostgreSQL reads the trust rules again', () => {
    const r = run('systemd', { systemd: true, installed: false, running: false, postinstStarts: true });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.calls).toContain('systemctl reload postgresql@15-main');
    expect(r.loadedHba()).toContain('host all all 127.0.0.1/32 trust');
    expect(r.stdout).toContain('PostgreSQL 15 reloaded (trust)');
  });

  it('on a systemd machine with the services stopped: starts them through systemctl', () => {
    const r = run('systemd-stopped', { systemd: true, installed: true, running: false });
    expect(r.status).toBe(0);
    expect(r.calls).toEqual(
      expect.arrayContaining([
        'systemctl start postgresql',
        'systemctl start mariadb',
        'systemctl start redis-server',
      ]),
    );
    expect(r.calls).not.toContainEqual(
      expect.stringMatching(/^(start-stop-daemon|redis-server|pg_ctlcluster)/),
    );
  });

  it('in a container after a restart (empty /run): recreates the socket folders before starting', () => {
    const r = run('restarted', { systemd: false, installed: true, running: false, emptyRun: true });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect([r.up(5432), r.up(3306), r.up(6379)]).toEqual([true, true, true]);
  });

  it('says what to install when Node.js is older than the workspace needs, and fails', () => {
    const r = run('node18', { systemd: false, installed: true, running: true, node: '18.19.0' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Node.js 20.19+, 22.12+ or 24 with npm is needed (found: 18.19.0');
    expect(r.stderr).toMatch(/https:\/\/nodejs\.org.*NodeSource:\n.*deb\.nodesource\.com/);
    expect(run('node2018', { systemd: false, installed: true, running: true, node: '20.18.1' }).status).toBe(
      1,
    );
    expect(run('node2212', { systemd: false, installed: true, running: true, node: '22.12.0' }).status).toBe(
      0,
    );
  });

  it("leaves an operator's own pg_hba.conf alone, and fails naming the fix when postgres needs a password", () => {
    const r = run('scram', { systemd: false, installed: true, running: true, stockHba: true });
    expect(r.status).toBe(1);
    expect(r.hba()).toBe(STOCK_HBA);
    expect(r.stderr).toContain('PostgreSQL refuses postgres without a password on 127.0.0.1');
  });
});
