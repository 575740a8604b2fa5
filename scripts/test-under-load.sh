#!/usr/bin/env bash
# Runs the test suite (or the jest arguments given) while CPU-burning processes keep every core busy, to prove the
# tests wait for conditions instead of racing the clock. Reports pass/fail and wall time of each run.
#
#   scripts/test-under-load.sh                          # the whole suite once, one burner per core
#   RUNS=3 scripts/test-under-load.sh test/webhooks     # three runs of the webhook suites
#   BURNERS=4 scripts/test-under-load.sh ...            # more burners than cores (a busier machine)
#
# The database is the one jest would use anyway: TEST_DATABASE_URL when set, the embedded PGlite otherwise.
set -u
cd "$(dirname "$0")/.."

burners="${BURNERS:-$(nproc)}"
runs="${RUNS:-1}"
pids=()

stop_burners() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
}
trap stop_burners EXIT
trap 'exit 130' INT TERM

for _ in $(seq "$burners"); do
  node -e 'for (;;) {}' &
  pids+=("$!")
done

database="${TEST_DATABASE_URL:+PostgreSQL ($TEST_DATABASE_URL)}"
echo "test-under-load: ${burners} CPU burner(s) on $(nproc) core(s); database: ${database:-embedded PGlite}; ${runs} run(s) of: jest $*"

failed=0
for run in $(seq "$runs"); do
  started=$(date +%s)
  npx jest "$@"
  status=$?
  seconds=$(($(date +%s) - started))
  load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
  if [ "$status" -eq 0 ]; then result=PASS; else result="FAIL (exit $status)"; failed=$((failed + 1)); fi
  echo "test-under-load: run ${run}/${runs}: ${result} in ${seconds} s (load average ${load})"
done

echo "test-under-load: $((runs - failed)) of ${runs} run(s) passed"
[ "$failed" -eq 0 ]
