#!/usr/bin/env bash
# Starts the local PostgreSQL, MariaDB and Redis the integration tests use, when they are installed but not
# running. Idempotent; prints what it did. Addresses: 127.0.0.1:5432 (postgres, trust), 127.0.0.1:3306 (root,
# empty password), 127.0.0.1:6379.
set -u

wait_for() { # name, probe command...
  local name=$1; shift
  for _ in $(seq 1 60); do
    if "$@" >/dev/null 2>&1; then echo "services: $name is up"; return 0; fi
    sleep 1
  done
  echo "services: $name did not come up" >&2
  return 1
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# On a fresh Debian machine, as root: install what is missing from Debian's packages first (PostgreSQL with its
# initdb/pg_ctl for the fault suite's private clusters, MariaDB, Redis, Chromium for the browser tests), then
# configure the addresses above (trust on 127.0.0.1, database `test`, root without password over TCP).
missing=()
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "services: installing ${missing[*]} from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || echo "services: apt-get install ${missing[*]} failed" >&2
    fresh_pg=0; fresh_my=0
    for name in "${missing[@]}"; do
      [ "$name" = postgresql ] && fresh_pg=1
      [ "$name" = mariadb-server ] && fresh_my=1
    done
    if [ $fresh_pg = 1 ]; then
      for hba in /etc/postgresql/*/main/pg_hba.conf; do
        [ -f "$hba" ] || continue
        printf 'local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n' >"$hba"
      done
    fi
  else
    echo "services: missing ${missing[*]} (run this script as root on Debian to install them)" >&2
  fi
fi

status=0

if port_open 5432; then echo "services: PostgreSQL is up"; else
  if command -v pg_ctlcluster >/dev/null 2>&1; then
    for version in $(ls /etc/postgresql 2>/dev/null); do
      pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    done
    wait_for PostgreSQL port_open 5432 || status=1
  else
    echo "services: PostgreSQL is not installed (needed on 127.0.0.1:5432)" >&2; status=1
  fi
fi

if port_open 3306; then echo "services: MariaDB is up"; else
  if [ -x /usr/sbin/mariadbd ]; then
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
    wait_for MariaDB port_open 3306 || status=1
  else
    echo "services: MariaDB is not installed (needed on 127.0.0.1:3306)" >&2; status=1
  fi
fi

if port_open 6379; then echo "services: Redis is up"; else
  if command -v redis-server >/dev/null 2>&1; then
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
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
fi
if port_open 3306 && command -v mariadb >/dev/null 2>&1; then
  if ! mariadb -h 127.0.0.1 -u root -e 'select 1' >/dev/null 2>&1; then
    mariadb -u root -e "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD(''); \
      CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''; \
      GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION; FLUSH PRIVILEGES;" || true
  fi
  mariadb -h 127.0.0.1 -u root -e 'CREATE DATABASE IF NOT EXISTS test' >/dev/null 2>&1 || true
fi

exit $status
