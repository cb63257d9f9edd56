#!/usr/bin/env bash
# A real library's whole JUnit suite under hyprof (issue 23 item 4): Apache Commons Collections
# 4.5.0's tests jar (12,081 tests) run by the JUnit console launcher as its build's surefire runs
# it (classes *Test, not Abstract*/BulkTest; the JVM's default heap: the build sets none), in one
# JVM each: plain, under the agent (-javaagent, include org.apache.commons.collections4.*), and
# offline (the library jar and the tests jar instrumented one by one, two pieces, as an app's
# pieces are; OFFLINE=merged: both merged into one jar, instrumented once). Prints per variant the wall time of
# the suite's JVM, its ratio to plain, peak RSS, the per-test outcomes (and whether they equal
# plain's), then the books of each session (rows, exclusive ≤ inclusive, negatives, energy check).
# Rounds alternate the variants; times are medians. SUITE_JAVA_OPTS are added to every suite JVM
# (e.g. -Xmx512m), EXCLUDE (a class-name regex) leaves out more test classes. The jars come from the it module's build
# (the copy-realsuite-for-tests execution of it/pom.xml).
# Settings (environment variables): ROUNDS (default 1), OFFLINE (separate or merged), SUITE_JAVA_OPTS, EXCLUDE, WORK (a directory to work in), KEEP=1 (keep it).
set -euo pipefail
. "$(dirname "$0")/lib/help.sh" "$@" # --help: the comment above
ROUNDS=${ROUNDS:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SUITE="$ROOT/it/target/realsuite"
[ -f "$ROOT/cli/target/hyprof.jar" ] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl cli -am)
[ -f "$SUITE/collections4-tests.jar" ] || (cd "$ROOT" && mvn -B -q dependency:copy@copy-realsuite-for-tests -pl it)
HYPROF=(java -jar "$ROOT/cli/target/hyprof.jar")
WORK=${WORK:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
echo "work directory: $WORK" >&2
# the suite reads its serialized fixtures from src/test/resources/ relative to the working directory
mkdir -p "$WORK/src/test/resources"
(cd "$WORK/src/test/resources" && unzip -q -o "$SUITE/collections4-tests.jar" -x '*.class' 'META-INF/*')
DEPS=$(ls "$SUITE"/deps/*.jar | tr '\n' ':')$SUITE/junit-platform-console-standalone.jar
PKG=org.apache.commons.collections4

# offline: each jar instrumented on its own (a piece with its own probe namespace), or, with
# OFFLINE=merged, library + tests merged into one jar (the library's META-INF files first)
OFFLINE=${OFFLINE:-separate}
start=$(date +%s.%N)
case $OFFLINE in
  separate)
    for j in collections4 collections4-tests; do
      "${HYPROF[@]}" instrument "$SUITE/$j.jar" -o "$WORK/$j-hyprof.jar" --quiet
    done
    OFFLINE_CP="$WORK/collections4-hyprof.jar:$WORK/collections4-tests-hyprof.jar"
    OFFLINE_SCAN="$WORK/collections4-tests-hyprof.jar" ;;
  merged)
    python3 - "$SUITE/collections4.jar" "$SUITE/collections4-tests.jar" "$WORK/merged.jar" <<'PY'
import sys, zipfile
seen = set()
with zipfile.ZipFile(sys.argv[3], "w", zipfile.ZIP_DEFLATED) as out:
    for name in sys.argv[1:3]:
        with zipfile.ZipFile(name) as z:
            for i in z.infolist():
                if i.filename not in seen:
                    seen.add(i.filename)
                    out.writestr(i, z.read(i))
PY
    "${HYPROF[@]}" instrument "$WORK/merged.jar" -o "$WORK/merged-hyprof.jar" --quiet
    OFFLINE_CP="$WORK/merged-hyprof.jar"
    OFFLINE_SCAN="$WORK/merged-hyprof.jar" ;;
  *) echo "realsuite.sh: OFFLINE must be 'separate' or 'merged', not '$OFFLINE'" >&2; exit 2 ;;
esac
end=$(date +%s.%N)
methods=$(cat "$WORK"/*-hyprof.jar.manifest.tsv | grep -c $'^probe\t[0-9]*\tmethod')
echo "instrumented library + tests ($OFFLINE: $methods methods) in $(python3 -c "print(f'{$end-$start:.1f}')") s" >&2

TIME=()
command -v /usr/bin/time >/dev/null && TIME=(/usr/bin/time -f "%e %M" -o)
suite() { # NAME JAVA-OPTIONS... -- CLASSPATH [SCAN-ROOT]
  local name=$1; shift
  local opts=(${SUITE_JAVA_OPTS:-}); while [ "$1" != -- ]; do opts+=("$1"); shift; done; shift
  rm -rf "$WORK/$name"
  local start end
  start=$(date +%s.%N)
  local timed=(); [ ${#TIME[@]} -eq 0 ] || timed=("${TIME[@]}" "$WORK/$name.time")
  (cd "$WORK" && "${timed[@]}" java "${opts[@]}" -cp "$1" org.junit.platform.console.ConsoleLauncher execute \
    --scan-classpath "${2:-$SUITE/collections4-tests.jar}" --include-classname '.*Test' \
    --exclude-classname ".*\\.Abstract[^.\$]*Test|.*\\.BulkTest${EXCLUDE:+|$EXCLUDE}" --reports-dir "$WORK/$name" \
    --disable-banner --details=summary >"$WORK/$name.log" 2>&1) || true
  end=$(date +%s.%N)
  [ ${#TIME[@]} -gt 0 ] || echo "$(python3 -c "print($end-$start)") 0" >"$WORK/$name.time"
}
declare -A WALL RSS
for r in $(seq "$ROUNDS"); do
  suite plain -- "$SUITE/collections4.jar:$SUITE/collections4-tests.jar:$DEPS"
  suite agent "-javaagent:$ROOT/cli/target/lib/hyprof-agent.jar=out=$WORK/agent.hyprof,include=$PKG.*" \
    -- "$SUITE/collections4.jar:$SUITE/collections4-tests.jar:$DEPS"
  suite offline "-Dhyprof.options=out=$WORK/offline.hyprof" -- "$OFFLINE_CP:$DEPS" "$OFFLINE_SCAN"
  for v in plain agent offline; do
    read -r w m <"$WORK/$v.time"; WALL[$v]+="$w "; RSS[$v]+="$m "
  done
  echo "round $r/$ROUNDS done" >&2
done
for v in agent offline; do
  rm -f "$WORK/$v.db"
  "${HYPROF[@]}" import "$WORK/$v.hyprof" -o "$WORK/$v.db" >/dev/null
  "${HYPROF[@]}" report "$WORK/$v.db" --format csv >"$WORK/$v.csv"
  "${HYPROF[@]}" report "$WORK/$v.db" --by thread --format csv >"$WORK/$v-threads.csv"
  "${HYPROF[@]}" report "$WORK/$v.db" --format json --top 1 >"$WORK/$v.json"
done
python3 - "$WORK" "${WALL[plain]}" "${WALL[agent]}" "${WALL[offline]}" "${RSS[plain]}" "${RSS[agent]}" "${RSS[offline]}" <<'PY'
import collections, csv, glob, json, os, statistics, sys
import xml.etree.ElementTree as ET
work, walls, rss = sys.argv[1], sys.argv[2:5], sys.argv[5:8]
names = ["plain", "agent", "offline"]
def outcomes(v):
    out = collections.Counter()
    for f in glob.glob(os.path.join(work, v, "*.xml")):
        for tc in ET.parse(f).getroot().iter("testcase"):
            o = "passed"
            for tag in ("skipped", "failure", "error"):
                if tc.find(tag) is not None: o = tag
            out[(tc.get("classname"), tc.get("name"), o)] += 1
    return out
oc = {v: outcomes(v) for v in names}
base = statistics.median(map(float, walls[0].split()))
print(f"{'variant':8} {'wall s':>8} {'ratio':>6} {'peak RSS MB':>12} {'tests':>6} {'passed':>6} {'skipped':>7} {'failed':>6}  same outcomes as plain")
for v, w, m in zip(names, walls, rss):
    ws = list(map(float, w.split())); med = statistics.median(ws)
    mb = statistics.median(map(float, m.split())) / 1024
    c = collections.Counter(o for (_, _, o), n in oc[v].items() for _ in range(n))
    print(f"{v:8} {med:8.1f} {med / base:6.2f} {mb:12.0f} {sum(c.values()):6} {c['passed']:6} {c['skipped']:7} "
          f"{c['failure'] + c['error']:6}  {'yes' if oc[v] == oc['plain'] else 'NO: %d differ' % len(set(oc[v].items()) ^ set(oc['plain'].items()))}"
          + ("" if len(ws) == 1 else f"   (runs {' '.join(f'{x:.1f}' for x in ws)})"))
for v in ("agent", "offline"):
    rows = list(csv.DictReader(open(os.path.join(work, v + ".csv"))))
    num = [k for k in rows[0] if k not in ("method", "kind", "resolution")]
    bad = [r["method"] for r in rows if not (int(r["incl_ns"]) >= int(r["excl_ns"]) >= 0 and int(r["incl_raw_ns"]) >= int(r["excl_raw_ns"]) >= 0)]
    def negative(v):  # numeric columns only: some are empty or text (a count-only row's reason)
        try: return float(v) < 0
        except ValueError: return False
    neg = [r["method"] for r in rows if any(negative(r[k]) for k in num)]
    threads = list(csv.DictReader(open(os.path.join(work, v + "-threads.csv"))))
    e = json.load(open(os.path.join(work, v + ".json")))["energy"]
    sum_excl = sum(int(r["excl_ns"]) for r in rows); sum_thr = sum(int(r["time_ns"]) for r in threads)
    print(f"{v}: {len(rows)} methods, {sum(int(r['calls']) for r in rows):,} calls, {len(threads)} threads; "
          f"excl > incl in {len(bad)} rows, negative values in {len(neg)}; Σ excl {'=' if sum_excl == sum_thr else '≠'} Σ thread time; "
          f"energy check {100 * e['relative_difference']:.4f} %")
a = {r["method"]: r for r in csv.DictReader(open(os.path.join(work, "agent.csv")))}
o = {r["method"]: r for r in csv.DictReader(open(os.path.join(work, "offline.csv")))}
same = sum(1 for k in a.keys() & o.keys() if a[k]["calls"] == o[k]["calls"])
print(f"agent vs offline: {len(a.keys() & o.keys())} methods in both, {len(a.keys() - o.keys())} agent only, {len(o.keys() - a.keys())} offline only; "
      f"equal call counts in {same} (runs differ there too: LRUMapTest's threads, the Reference* maps' garbage collection, random inputs of the bloom filter and FilterListIterator tests)")
PY
