#!/usr/bin/env bash
# Runs .ci/run N times in a row, each on a fresh clone of this repository at COMMIT (default: HEAD)
# with ../shared beside it, as CI does, and (LOAD=1, the default) `stress-ng --cpu 2` beside each
# run: issue 20's "five loaded passes in a row". Stops at the first failure. One summary line per
# run in $LOGS/summary.txt, each run's whole output in $LOGS/<time>-<commit>-<i>.log.
#   bench/ci-loaded.sh [N] [COMMIT]       N defaults to 5
#   LOAD=0                                 no stress-ng (a quiet run)
#   WORK=dir LOGS=dir                      where the clones and logs go (default: temp dir, ./ci-logs)
set -uo pipefail
case "${1:-}" in -h|--help) sed -n 2,8p "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${1:-5}; COMMIT=${2:-$(git -C "$ROOT" rev-parse HEAD)}
SHARED=$(cd "$ROOT/../shared" 2>/dev/null && pwd) || { echo "ci-loaded.sh: no ../shared beside $ROOT" >&2; exit 2; }
[ "${LOAD:-1}" = 1 ] && ! command -v stress-ng >/dev/null && { echo "ci-loaded.sh: stress-ng is not installed (apt-get install stress-ng, or LOAD=0)" >&2; exit 2; }
WORK=${WORK:-$(mktemp -d)}; LOGS=${LOGS:-$PWD/ci-logs}
mkdir -p "$LOGS"
for i in $(seq "$N"); do
  rm -rf "$WORK/run"; mkdir -p "$WORK/run"; ln -s "$SHARED" "$WORK/run/shared"
  git clone -q "$ROOT" "$WORK/run/main" && git -C "$WORK/run/main" checkout -q "$COMMIT" || exit 1
  LOG=$LOGS/$(date +%H%M)-${COMMIT:0:7}-$i.log
  SP=
  if [ "${LOAD:-1}" = 1 ]; then stress-ng --cpu 2 --timeout 3h >/dev/null 2>&1 & SP=$!; fi
  S=$(date +%s); (cd "$WORK/run/main" && .ci/run) >"$LOG" 2>&1; RC=$?; E=$(date +%s)
  [ -n "$SP" ] && kill "$SP" 2>/dev/null
  echo "$(date +%H:%M) run $i/$N commit ${COMMIT:0:7} rc=$RC $((E-S))s load=$(cut -d' ' -f1-3 /proc/loadavg)" \
    "ITs: $(grep -hoE 'Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+' "$LOG" | tail -1)" | tee -a "$LOGS/summary.txt"
  [ $RC = 0 ] || exit $RC
done
