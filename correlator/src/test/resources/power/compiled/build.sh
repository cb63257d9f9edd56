#!/bin/sh
# Rebuilds the compiled (binary XML) power profiles of this directory from the shipped text
# profile, with a real Android tool: Debian's aapt (package aapt, Android 10's aapt 1). The UTF-8
# form needs the framework's attributes for minSdkVersion: Debian's android-framework-res
# (framework-res.apk, given to -I in place of an android.jar).
#   apt-get install -y aapt android-framework-res && sh build.sh
# Outputs: pixel-4a.apk (an APK whose res/xml/power_profile.xml is the profile, UTF-8 pool),
# pixel-4a-utf8.axml and pixel-4a-utf16.axml (the compiled files alone), and invalid/ (damaged
# copies of pixel-4a-utf16.axml, made by make-invalid.py).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
framework=/usr/share/android-framework-res/framework-res.apk
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/res/xml"
cp "$here/../../../../main/resources/org/hyprof/correlate/power_profile-pixel-4a.xml" "$work/res/xml/power_profile.xml"
aapt package -f -M "$here/AndroidManifest.xml" -S "$work/res" -I "$framework" -F "$here/pixel-4a.apk"
mkdir "$work/utf16" && cp "$here/AndroidManifest-utf16.xml" "$work/utf16/AndroidManifest.xml" # aapt wants that file name
aapt package -f -M "$work/utf16/AndroidManifest.xml" -S "$work/res" -F "$work/utf16.apk"
unzip -p "$here/pixel-4a.apk" res/xml/power_profile.xml > "$here/pixel-4a-utf8.axml"
unzip -p "$work/utf16.apk" res/xml/power_profile.xml > "$here/pixel-4a-utf16.axml"
python3 "$here/make-invalid.py" "$here/pixel-4a-utf16.axml" "$here/invalid"
