#!/usr/bin/env bash
# Installs the system packages quire needs to run and to be tested, on Debian/Ubuntu (apt) or macOS (Homebrew).
#   scripts/setup-system.sh [start|test]          install what is missing (apt-get needs root: sudo when not root)
#   scripts/setup-system.sh --check [start|test]  print what is missing and exit 1 if anything is; installs nothing
# `start` is what `npm start` needs with this environment; `test` (the default) is everything: what `npm start`
# needs whatever the environment, and what the tests and benchmarks need. `npm start` and `npm test` call this
# script themselves (scripts/preflight.mjs) when something is missing.
set -euo pipefail

check_only=false
group=test
for arg in "$@"; do
  case "$arg" in
    --check) check_only=true ;;
    start | test) group=$arg ;;
    *) echo "usage: $0 [--check] [start|test]" >&2; exit 2 ;;
  esac
done

have() { command -v "$1" >/dev/null; }
# For `start` alone, what the environment provides instead needs no package: a Redis of its own (REDIS_URL),
# speech to text turned off (SPEECH_ENGINE=none).
needs_redis() { [ "$group" = test ] || [ -z "${REDIS_URL:-}" ]; }
needs_speech() { [ "$group" = test ] || [ "${SPEECH_ENGINE:-}" != none ]; }
have_ffmpeg() { have "${FFMPEG_PATH:-ffmpeg}" && have "${FFPROBE_PATH:-ffprobe}"; }
have_pocketsphinx() { have "${POCKETSPHINX_PATH:-pocketsphinx_continuous}"; }

missing=()
if [ "$(uname -s)" = Darwin ]; then
  # Homebrew has what `npm start` needs; the speech recordings and the chromium that some tests use are
  # Debian's packages (see README: on macOS, run `npm test` in a Debian container).
  needs_redis && ! have redis-server && missing+=(redis)
  have_ffmpeg || missing+=(ffmpeg)
  needs_speech && ! have_pocketsphinx && missing+=(cmu-pocketsphinx)
  [ "$group" = start ] || have pdftotext || missing+=(poppler)
  have soffice || [ -x /Applications/LibreOffice.app/Contents/MacOS/soffice ] || missing+=(libreoffice)
  if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
  if $check_only; then echo "${missing[*]}"; exit 1; fi
  echo "Installing with Homebrew: ${missing[*]}"
  brew install "${missing[@]}"
  exit 0
fi

# Debian's package names. The checks need no apt, so that on another Linux with everything installed
# `npm start` runs, and otherwise the list says what to install by hand.
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# What `npm start` needs.
needs_redis && ! have redis-server && missing+=(redis-server)
have_ffmpeg || missing+=(ffmpeg)
if needs_speech; then
  have_pocketsphinx || missing+=(pocketsphinx)
  [ -d /usr/share/pocketsphinx/model/en-us ] || missing+=(pocketsphinx-en-us)
fi

# Legacy Word, PowerPoint and Excel files (DOC, PPT, XLS) are converted by LibreOffice, without a desktop.
if ! have soffice; then
  installed libreoffice-writer-nogui || missing+=(libreoffice-writer-nogui)
  installed libreoffice-impress-nogui || missing+=(libreoffice-impress-nogui)
  installed libreoffice-calc-nogui || missing+=(libreoffice-calc-nogui)
fi

if [ "$group" = test ]; then
  # Recordings of real speech for the transcription tests (pocketsphinx does not recognise synthetic speech).
  installed pocketsphinx-testdata || missing+=(pocketsphinx-testdata)
  # The OCR tests draw their words with SVG text, which needs a font and fontconfig's configuration.
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
  [ -f /etc/fonts/fonts.conf ] || missing+=(fontconfig-config)
  # The browser test drives Debian's Chromium with playwright-core (which downloads no browser of its own).
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  # The PDF benchmark compares with pdftotext.
  have pdftotext || missing+=(poppler-utils)
  # The one-command test clones the repository; the launcher test looks for leftover processes with pgrep.
  have git || missing+=(git)
  have pgrep || missing+=(procps)
  have useradd || missing+=(passwd)
  # The fleet tests make their hosts as network namespaces (`ip netns`, veth pairs, a bridge); they need root.
  have ip || missing+=(iproute2)
fi

if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if $check_only; then echo "${missing[*]}"; exit 1; fi

if ! have apt-get; then
  echo "This script knows apt (Debian/Ubuntu) and Homebrew (macOS). Install these by hand: ${missing[*]}" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  have sudo || { echo "Run this script as root (apt-get needs it): ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "Installing system packages: ${missing[*]}"
# No questions (CI has no stdin; sudo resets the environment, hence env). The package lists first: a fresh
# machine's may be missing or stale.
apt_get=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
"${apt_get[@]}" update -qq </dev/null
"${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
