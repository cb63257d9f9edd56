#!/usr/bin/env bash
# Fetches Unicorn 2.1.1 for the engine shim (issue 17): Debian 13's libunicorn-dev package, pinned by
# version and SHA-256, verified before it is unpacked, into .cache/unicorn/VERSION/ of this
# repository (build.sh links its libunicorn.a statically when it is there). Idempotent; no root,
# nothing installed system-wide. Exit 0 when the library is in place, 1 when it could not be had
# (the build then falls back to the system's libunicorn-dev 2.0.1, then to the unidbg engine).
#   bb-tracer/src/main/c/fetch-unicorn.sh
set -euo pipefail
VERSION=2.1.1-2+b2
SHA256=479613e244a6023c03708951a5f0e00fc96c83a4b74b4d74c9fe7d3a9050208b
URL=http://deb.debian.org/debian/pool/main/u/unicorn-engine/libunicorn-dev_${VERSION}_amd64.deb
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
DEST="$ROOT/.cache/unicorn/$VERSION"
[ -f "$DEST/usr/lib/x86_64-linux-gnu/libunicorn.a" ] && exit 0
command -v dpkg-deb >/dev/null || { echo "[hyprof] fetch-unicorn: dpkg-deb is missing" >&2; exit 1; }
mkdir -p "$ROOT/.cache/unicorn"
TMP=$(mktemp -d "$ROOT/.cache/unicorn/.fetch.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
if ! curl -fsSL --retry 2 -o "$TMP/p.deb" "$URL"; then
  echo "[hyprof] fetch-unicorn: cannot download $URL" >&2
  exit 1
fi
if ! echo "$SHA256  $TMP/p.deb" | sha256sum -c --status; then
  echo "[hyprof] fetch-unicorn: $URL does not have the pinned SHA-256 $SHA256; not used" >&2
  exit 1
fi
dpkg-deb -x "$TMP/p.deb" "$TMP/x"
rm -rf "$DEST"
mv "$TMP/x" "$DEST"   # appears whole or not at all
echo "[hyprof] fetch-unicorn: Unicorn $VERSION in $DEST"
