# Sourced by the scripts in bench/ that take BEFORE=DIR (another checkout, e.g. main before a
# change, with its CLI built): refuses a BEFORE without its CLI, and gives before_hyprof ARGS...,
# which runs that checkout's CLI without ever rebuilding it.
if [ -n "${BEFORE:-}" ]; then
  [ -f "$BEFORE/cli/target/hyprof.jar" ] || {
    echo "$(basename "$0"): BEFORE=$BEFORE has no CLI built (mvn -o -q package -pl cli -am -DskipTests there)" >&2; exit 1; }
fi
before_hyprof() { HYPROF_NO_BUILD=1 "$BEFORE/hyprof" "$@"; }
