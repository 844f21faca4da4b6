#!/usr/bin/env bash
# Installs PostgreSQL (Debian package) and starts a private server on 127.0.0.1 for the storage tests.
#
# Usage (CI):   eval "$(bash scripts/ci-postgres.sh)"
#               # -> exports MAFIABOT_TEST_POSTGRES_URL=postgresql+psycopg://mafiabot:mafiabot@127.0.0.1:PORT/mafiabot_test
# Stop it:      bash scripts/ci-postgres.sh stop
#
# stdout carries only the `export …` line, so that `eval` works; progress goes to stderr.
# The cluster lives in its own data directory on its own port, so it never touches a system cluster.
# Idempotent: a second run reuses the running server. Must run as root (apt-get, su postgres).
set -euo pipefail

PORT="${MAFIABOT_PG_PORT:-54329}"
DATA_DIR="${MAFIABOT_PG_DATA:-/var/tmp/mafiabot-pg}"
DB_NAME="${MAFIABOT_PG_DB:-mafiabot_test}"
DB_USER="${MAFIABOT_PG_USER:-mafiabot}"
DB_PASSWORD="${MAFIABOT_PG_PASSWORD:-mafiabot}"
URL="postgresql+psycopg://${DB_USER}:${DB_PASSWORD}@127.0.0.1:${PORT}/${DB_NAME}"

log() { echo "ci-postgres: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
    log "must run as root (installs a Debian package and runs the server as the postgres user)"
    exit 1
fi

pg_bin() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [ -z "$dir" ]; then
        return 1
    fi
    echo "$dir"
}

as_postgres() { su postgres -s /bin/sh -c "$1"; }

if [ "${1:-}" = "stop" ]; then
    if BIN="$(pg_bin)" && [ -f "$DATA_DIR/PG_VERSION" ]; then
        as_postgres "'$BIN/pg_ctl' -D '$DATA_DIR' -m fast stop" >&2 || true
    fi
    exit 0
fi

if ! BIN="$(pg_bin)" || ! id postgres >/dev/null 2>&1; then
    log "installing the Debian package postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends postgresql >&2
    BIN="$(pg_bin)"
fi
log "using $BIN"

if [ ! -f "$DATA_DIR/PG_VERSION" ]; then
    log "creating a cluster in $DATA_DIR"
    mkdir -p "$DATA_DIR"
    chown postgres:postgres "$DATA_DIR"
    chmod 700 "$DATA_DIR"
    as_postgres "'$BIN/initdb' -D '$DATA_DIR' -U postgres --auth-local=trust --auth-host=scram-sha-256 \
        -E UTF8 --locale=C.UTF-8" >&2 \
        || as_postgres "'$BIN/initdb' -D '$DATA_DIR' -U postgres --auth-local=trust \
        --auth-host=scram-sha-256 -E UTF8 --locale=C" >&2
fi

if ! as_postgres "'$BIN/pg_ctl' -D '$DATA_DIR' status" >/dev/null 2>&1; then
    log "starting the server on 127.0.0.1:$PORT"
    # The socket goes into the data directory: /var/run/postgresql may not exist without the system cluster.
    as_postgres "'$BIN/pg_ctl' -D '$DATA_DIR' -l '$DATA_DIR/server.log' -w -t 60 \
        -o \"-c listen_addresses=127.0.0.1 -p $PORT -k '$DATA_DIR' -c fsync=off\" start" >&2
fi

psql_admin() { as_postgres "'$BIN/psql' -h '$DATA_DIR' -p $PORT -U postgres -d postgres -v ON_ERROR_STOP=1 -qtAc \"$1\""; }

if [ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != "1" ]; then
    log "creating role $DB_USER"
    psql_admin "CREATE ROLE $DB_USER LOGIN PASSWORD '$DB_PASSWORD'" >&2
fi
if [ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != "1" ]; then
    log "creating database $DB_NAME"
    psql_admin "CREATE DATABASE $DB_NAME OWNER $DB_USER" >&2
fi
# The migration tests create and drop scratch databases next to the main one.
psql_admin "ALTER ROLE $DB_USER CREATEDB" >&2
# DROP DATABASE … WITH (FORCE) ends every session on the database, including an autovacuum worker that
# happens to be there; such a worker advertises no role, so without pg_signal_backend the drop is refused
# ("must be a member of the role whose process is being terminated"). Granting it again is harmless.
psql_admin "GRANT pg_signal_backend TO $DB_USER" >&2

log "ready: $URL"
echo "export MAFIABOT_TEST_POSTGRES_URL='$URL'"
