#!/usr/bin/env bash
# Exports of a 10^7-event session (synthetic, 4 threads: bench's ExportSession), every format,
# before (another build's hyprof.jar: main's by default) and after (this tree's), in one run:
# wall and CPU time (user + sys, every thread), events per wall second and per CPU second, and
# peak RSS of each `hyprof export` (GNU time), the JVM's start included, and the machine's 1-minute
# load average as each export starts (/proc/loadavg: the figures are only comparable at a similar
# load; before and after alternate, format by format). Never asserts.
#   EVENTS=10000000            events in the session
#   BEFORE_JAR=path/hyprof.jar the 'before' command; unset: main is cloned and built in a temp dir
#   BEFORE_REF=main            what to build when BEFORE_JAR is unset ('none': skip 'before')
#   FORMATS="trace … parquet"  the formats to export (default: all; parquet writes a directory)
#   JAVA_OPTS=                 JVM options for both builds' commands (e.g. to measure a launcher flag)
#   SESSION=path/s.db          export this session instead of generating one (EVENTS must say its size)
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
EVENTS=${EVENTS:-10000000}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
[ -f "$HERE/target/benchmarks.jar" ] && [ -f "$ROOT/cli/target/hyprof.jar" ] \
  || (cd "$ROOT" && mvn -B -q -o -DskipTests package -pl bench -am)
AFTER="$ROOT/cli/target/hyprof.jar"
BEFORE=${BEFORE_JAR:-}
if [ -z "$BEFORE" ] && [ "${BEFORE_REF:-main}" != none ]; then
  echo "building ${BEFORE_REF:-main}'s hyprof.jar in $WORK/before ..." >&2
  git clone -q --branch "${BEFORE_REF:-main}" "$ROOT" "$WORK/before"
  (cd "$WORK/before" && mvn -B -q -o -DskipTests package -pl cli -am) >&2
  BEFORE="$WORK/before/cli/target/hyprof.jar"
fi
if [ -n "${SESSION:-}" ]; then
  ln -s "$(cd "$(dirname "$SESSION")" && pwd)/$(basename "$SESSION")" "$WORK/s.db"
else
  java -cp "$HERE/target/benchmarks.jar" org.hyprof.bench.ExportSession "$WORK/s.db" "$EVENTS" >/dev/null
fi
echo "session: $EVENTS events, $(du -mL "$WORK/s.db" | cut -f1) MB" >&2
printf '%-11s %-7s %7s %7s %11s %11s %8s %9s %5s\n' format build "wall s" "cpu s" "M ev/wall s" "M ev/cpu s" "peak MB" "output MB" load
run() { # format build jar
  local out="$WORK/out.$1" load
  load=$(cut -d' ' -f1 /proc/loadavg)
  if /usr/bin/time -f '%e %U %S %M' -o "$WORK/time" java ${JAVA_OPTS:-} -jar "$3" export "$WORK/s.db" --format "$1" -o "$out" 2>"$WORK/err"; then
    read -r wall user sys rss <"$WORK/time"
    local cpu
    cpu=$(echo "$user + $sys" | bc -l)
    printf '%-11s %-7s %7.2f %7.2f %11.2f %11.2f %8d %9d %5s\n' "$1" "$2" "$wall" "$cpu" "$(echo "$EVENTS / $wall / 1000000" | bc -l)" \
      "$(echo "$EVENTS / $cpu / 1000000" | bc -l)" $((rss / 1024)) "$(du -sm "$out" | cut -f1)" "$load"
  else
    printf '%-11s %-7s %s\n' "$1" "$2" "failed: $(tail -1 "$WORK/err")"
  fi
  rm -rf "$out"
}
for f in ${FORMATS:-trace chrome folded speedscope perfetto parquet}; do
  [ -z "$BEFORE" ] || run "$f" before "$BEFORE"
  run "$f" after "$AFTER"
done
