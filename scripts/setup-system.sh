#!/usr/bin/env bash
# Installs the system packages quire needs to run and to be tested, on Debian/Ubuntu (apt) or macOS (Homebrew).
#   scripts/setup-system.sh          install what is missing (apt-get needs root: it uses sudo when not root)
#   scripts/setup-system.sh --check  print what is missing and exit 1 if anything is; installs nothing
# `.ci/run` calls it, and `npm start`/`npm test` point here when something is missing.
set -euo pipefail

check_only=false
case "${1:-}" in
  --check) check_only=true ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

missing=()
if [ "$(uname -s)" = Darwin ]; then
  # Homebrew has what `npm start` needs; the speech recordings and the chromium that some tests use are
  # Debian's packages (see README: on macOS, run `npm test` in a Debian container).
  command -v redis-server >/dev/null || missing+=(redis)
  command -v ffmpeg >/dev/null || missing+=(ffmpeg)
  command -v pocketsphinx_continuous >/dev/null || missing+=(cmu-pocketsphinx)
  command -v pdftotext >/dev/null || missing+=(poppler)
  if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
  if $check_only; then echo "${missing[*]}"; exit 1; fi
  echo "Installing with Homebrew: ${missing[*]}"
  brew install "${missing[@]}"
  exit 0
fi

if ! command -v apt-get >/dev/null; then
  echo "This script knows apt (Debian/Ubuntu) and Homebrew (macOS). Install by hand: redis-server, ffmpeg," >&2
  echo "pocketsphinx with its en-us model and test recordings, the DejaVu fonts, chromium, poppler-utils." >&2
  exit 1
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

command -v redis-server >/dev/null || missing+=(redis-server)
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
command -v pocketsphinx_continuous >/dev/null || missing+=(pocketsphinx)
[ -d /usr/share/pocketsphinx/model/en-us ] || missing+=(pocketsphinx-en-us)
# Recordings of real speech for the transcription tests (pocketsphinx does not recognise synthetic speech).
installed pocketsphinx-testdata || missing+=(pocketsphinx-testdata)
# The OCR tests draw their words with SVG text, which needs a font and fontconfig's configuration.
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ -f /etc/fonts/fonts.conf ] || missing+=(fontconfig-config)
# The browser test drives Debian's Chromium with playwright-core (which downloads no browser of its own).
[ -x /usr/bin/chromium ] || missing+=(chromium)
# The PDF benchmark compares with pdftotext.
command -v pdftotext >/dev/null || missing+=(poppler-utils)
# The one-command test clones the repository; the launcher test looks for leftover processes with pgrep.
command -v git >/dev/null || missing+=(git)
command -v pgrep >/dev/null || missing+=(procps)
command -v useradd >/dev/null || missing+=(passwd)
# The fleet tests make their hosts as network namespaces (`ip netns`, veth pairs, a bridge); they need root.
command -v ip >/dev/null || missing+=(iproute2)

if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if $check_only; then echo "${missing[*]}"; exit 1; fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "Run this script as root (apt-get needs it): ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "Installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
