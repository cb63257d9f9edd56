# Sourced by the scripts in bench/ right after `set -euo pipefail`: -h/--help prints the calling
# script's header comment (its lines from the second to `set -…`), which says what it measures
# and its settings; any other argument is refused (the settings are environment variables).
case "${1:-}" in
  -h|--help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
  "") ;;
  *) echo "$(basename "$0"): unknown argument '$1' (settings are environment variables: --help)" >&2; exit 2 ;;
esac
