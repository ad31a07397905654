#!/usr/bin/env bash
# The message budgets in Redis against the budgets in each process's memory, interleaved in
# one session on one host: the same code, the same load (one process, PostgreSQL + Redis, the
# set-up of docs/benchmarks.md), the only difference
# KAIZA_BUDGET_REDIS_URL (unset: the users' budgets in Redis; empty: in memory).
#
#   bench/scripts/bench_budgets.sh                       # RUNS="redis memory memory redis" M=100 S=5 D=20
#   RUNS="redis memory" M=200 bench/scripts/bench_budgets.sh
#
# Needs PostgreSQL (database kaiza_load, re-made each run) and Redis (db 5, flushed each run) on
# 127.0.0.1, port 8101 free. PROFILE=<dir> also records py-spy profiles of the server there. Prints the host's timeit and the loadtest's report per run.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
RUNS=${RUNS:-"redis memory memory redis"}
M=${M:-100}
S=${S:-5}
D=${D:-20}
PORT=${PORT:-8101}
export DATABASE_URL=postgres://postgres@127.0.0.1:5432/kaiza_load REDIS_URL=redis://127.0.0.1:6379/5
export DEBUG=0 SECRET_KEY=bench-budgets-0123456789-0123456789-0123456789-0123 LOG_LEVEL=WARNING
export KAIZA_RATE_LIMITS='{"guest_create": {"ip": [100000, 60]}, "match_create": {"ip": [100000, 60]}, "match_join": {"ip": [100000, 60]}}'
export KAIZA_SOCKET_LIMITS='{"match": {"user": 4, "ip": 100}, "process": {"ip": 100000}}'
export KAIZA_MESSAGE_BUDGETS='{"ip:aim": [100000, 100000], "ip:other": [100000, 100000]}'
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null || true' EXIT
for run in $RUNS; do
  psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS kaiza_load" -c "CREATE DATABASE kaiza_load" postgres
  redis-cli -n 5 flushdb >/dev/null
  "$PY" manage.py migrate --noinput -v 0
  case $run in
    redis) env -u KAIZA_BUDGET_REDIS_URL "$PY" -m bench.serve -b 127.0.0.1 -p "$PORT" kaiza_site.asgi:application & ;;
    memory) KAIZA_BUDGET_REDIS_URL="" "$PY" -m bench.serve -b 127.0.0.1 -p "$PORT" kaiza_site.asgi:application & ;;
    *) echo "unknown run $run (redis or memory)" >&2; exit 2 ;;
  esac
  server=$!
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/" -o /dev/null && break; sleep 0.2; done
  if [ -n "${PROFILE:-}" ]; then  # PROFILE=dir: py-spy's collapsed stacks of the server, set-up and window
    "$(dirname "$PY")/py-spy" record --gil -p "$server" -d $((D + 40)) -r 50 -f raw -o "$PROFILE/$run-$(date +%s).txt" >/dev/null 2>&1 &
  fi
  echo "=== run $run: timeit $("$PY" -m timeit "sum(i*i for i in range(10**6))" | sed 's/.*: //')"
  DJANGO_SETTINGS_MODULE=bench.settings "$PY" manage.py loadtest --url "http://127.0.0.1:$PORT" --matches "$M" --spectators "$S" \
      --duration "$D" --think 3-8 --server-pid "$server" ${LOADTEST_ARGS:-} || true
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
done
