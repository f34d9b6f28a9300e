#!/usr/bin/env bash
# Starts the local PostgreSQL, MariaDB and Redis the integration tests use, when they are installed but not
# running, and checks that Node.js is new enough. Idempotent; prints what it did. Addresses: 127.0.0.1:5432
# (postgres, trust), 127.0.0.1:3306 (root, empty password), 127.0.0.1:6379.
#
# On a fresh Debian machine run as root it first installs what is missing from Debian's packages (PostgreSQL with
# its initdb/pg_ctl for the fault suite's private clusters, MariaDB, Redis, Chromium for the browser tests) and
# configures those addresses. It works with and without systemd: with systemd the services are started (and
# PostgreSQL reloaded) through systemctl; without it (a container) PostgreSQL through pg_ctlcluster, MariaDB as
# the mysql user (Debian's stock configuration leaves `user` to systemd, and mariadbd refuses to run as root), each
# with its socket directory under /run created first. Node.js is not installed here: Debian 12's is 18, and a newer
# one comes from nodejs.org or NodeSource (see the README); the script says so and fails when it is missing.
#
# Sourcing the script defines its functions without running it (scripts/ensure-services.test.ts does that).
set -u

# Paths, as variables so the script's test can point them at a scratch folder.
PG_ETC=/etc/postgresql
MARIADBD=/usr/sbin/mariadbd
RUN_DIR=/run
REDIS_DIR=/var/lib/redis
REDIS_LOG_DIR=/var/log/redis
WAIT_SECONDS=60

wait_for() { # name, probe command...
  local name=$1; shift
  for _ in $(seq 1 "$WAIT_SECONDS"); do
    if "$@" >/dev/null 2>&1; then echo "services: $name is up"; return 0; fi
    sleep 1
  done
  echo "services: $name did not come up" >&2
  return 1
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
is_root() { [ "$(id -u)" = 0 ]; }
# The test sd_booted(3) makes: systemd is the init system, not merely installed.
systemd_running() { [ -d "$RUN_DIR/systemd/system" ]; }
pg_versions() { ls "$PG_ETC" 2>/dev/null; }

# Node.js as the workspace's engines field asks: >=20.19.0 <21 || >=22.12.0.
node_ok() {
  local version major minor
  version=$(node -p 'process.versions.node' 2>/dev/null) || return 1
  IFS=. read -r major minor _ <<<"$version"
  [[ $major =~ ^[0-9]+$ && $minor =~ ^[0-9]+$ ]] || return 1
  { [ "$major" -eq 20 ] && [ "$minor" -ge 19 ]; } || { [ "$major" -eq 22 ] && [ "$minor" -ge 12 ]; } \
    || [ "$major" -ge 23 ]
}

check_node() {
  node_ok && return 0
  local found
  found=$(node --version 2>/dev/null || echo 'none')
  cat >&2 <<EOF_NODE
services: Node.js 20.19+, 22.12+ or 24 with npm is needed (found: $found; Debian 12's nodejs package is 18).
  Install it from https://nodejs.org, or on Debian or Ubuntu, as root, from NodeSource:
  curl -fsSL https://deb.nodesource.com/setup_22.x | bash - && apt-get install -y nodejs
EOF_NODE
  return 1
}

# pg_ctlcluster through systemd where it runs (it redirects there itself), else directly.
pg_cluster() { # action version
  if systemd_running; then pg_ctlcluster "$2" main "$1"; else pg_ctlcluster --skip-systemctl-redirect "$2" main "$1"; fi
}

# Trust for local connections, then a reload: a cluster the package's post-install already started keeps the
# stock scram-sha-256 rules until it reads the file again.
pg_trust() {
  local version hba
  for version in $(pg_versions); do
    hba="$PG_ETC/$version/main/pg_hba.conf"
    [ -f "$hba" ] || continue
    printf 'local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n' >"$hba"
    if pg_cluster reload "$version" >/dev/null 2>&1; then echo "services: PostgreSQL $version reloaded (trust)"; fi
  done
}

start_postgres() {
  if systemd_running; then
    systemctl start postgresql || true
    return
  fi
  # Its socket directory is on /run (a tmpfs, empty after a reboot); pg_ctlcluster stops when it is missing.
  is_root && install -d -m 2775 -o postgres -g postgres "$RUN_DIR/postgresql"
  local version
  for version in $(pg_versions); do pg_cluster start "$version" || true; done
}

start_mariadb() {
  if systemd_running; then
    systemctl start mariadb || true
    return
  fi
  # The socket and pid file live in /run/mysqld, which the mysql user must own; mariadbd drops to that user
  # itself (as root without --user it refuses to start).
  is_root && install -d -m 0755 -o mysql -g mysql "$RUN_DIR/mysqld"
  start-stop-daemon --start --oknodo --background --pidfile "$RUN_DIR/mysqld/mysqld.pid" --exec "$MARIADBD" \
    -- --user=mysql || true
}

start_redis() {
  if systemd_running; then
    systemctl start redis-server || true
    return
  fi
  mkdir -p "$REDIS_DIR" "$REDIS_LOG_DIR" 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir "$REDIS_DIR" --logfile "$REDIS_LOG_DIR/ci.log" || true
}

install_missing() {
  local missing=()
  command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
  [ -x "$MARIADBD" ] || missing+=(mariadb-server)
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  [ ${#missing[@]} -gt 0 ] || return 0
  if is_root && command -v apt-get >/dev/null 2>&1; then
    echo "services: installing ${missing[*]} from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || echo "services: apt-get install ${missing[*]} failed" >&2
    local name
    for name in "${missing[@]}"; do
      if [ "$name" = postgresql ]; then pg_trust; fi
    done
  else
    cat >&2 <<EOF_HELP
services: missing ${missing[*]}. On Debian or Ubuntu, as root: bash scripts/ensure-services.sh, or by hand:
  apt-get update && apt-get install -y ${missing[*]}
  # PostgreSQL: trust for local connections, read again, and a database named test
  printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' > /etc/postgresql/*/main/pg_hba.conf
  pg_ctlcluster \$(ls /etc/postgresql) main reload   # or restart; --skip-systemctl-redirect without systemd
  psql -h 127.0.0.1 -U postgres -c 'create database test'
  # MariaDB: root without a password over TCP and a database named test
  mariadb -u root -e "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD(''); CREATE DATABASE IF NOT EXISTS test"
or, with Docker: docker compose up -d (compose.yaml in the repository root).
EOF_HELP
  fi
}

main() {
  local status=0
  check_node || status=1
  install_missing

  if port_open 5432; then echo "services: PostgreSQL is up"; else
    if command -v pg_ctlcluster >/dev/null 2>&1; then
      start_postgres
      wait_for PostgreSQL port_open 5432 || status=1
    else
      echo "services: PostgreSQL is not installed (needed on 127.0.0.1:5432)" >&2; status=1
    fi
  fi

  if port_open 3306; then echo "services: MariaDB is up"; else
    if [ -x "$MARIADBD" ]; then
      start_mariadb
      wait_for MariaDB port_open 3306 || status=1
    else
      echo "services: MariaDB is not installed (needed on 127.0.0.1:3306)" >&2; status=1
    fi
  fi

  if port_open 6379; then echo "services: Redis is up"; else
    if command -v redis-server >/dev/null 2>&1; then
      start_redis
      wait_for Redis port_open 6379 || status=1
    else
      echo "services: Redis is not installed (needed on 127.0.0.1:6379)" >&2; status=1
    fi
  fi

  # The databases and the MariaDB root login the tests expect (idempotent; quiet when already so).
  if port_open 5432 && command -v psql >/dev/null 2>&1; then
    if ! psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname='test'" 2>/dev/null | grep -q 1; then
      runuser -u postgres -- psql -c 'create database test' >/dev/null 2>&1 \
        || psql -h 127.0.0.1 -U postgres -c 'create database test' >/dev/null 2>&1 || true
    fi
    if ! psql -h 127.0.0.1 -U postgres -d test -tAc 'select 1' >/dev/null 2>&1; then
      echo "services: PostgreSQL refuses postgres without a password on 127.0.0.1 (trust in pg_hba.conf, then reload)" >&2
      status=1
    fi
  fi
  if port_open 3306 && command -v mariadb >/dev/null 2>&1; then
    if ! mariadb -h 127.0.0.1 -u root -e 'select 1' >/dev/null 2>&1; then
      mariadb -u root -e "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD(''); \
        CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''; \
        GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION; FLUSH PRIVILEGES;" || true
    fi
    mariadb -h 127.0.0.1 -u root -e 'CREATE DATABASE IF NOT EXISTS test' >/dev/null 2>&1 || true
  fi

  return $status
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  main "$@"
  exit $?
fi
