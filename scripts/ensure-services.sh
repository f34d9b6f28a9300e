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

exit $status
