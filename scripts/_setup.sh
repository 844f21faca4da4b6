# Sourced by scripts/run and scripts/test: install what the project needs on a fresh machine, once.
#  - Debian packages for audio (espeak-ng: offline Russian voice; ffmpeg: MP3 decoding; libopus0: Opus)
#  - for the tests (MAFIABOT_SETUP_TESTS=1, set by scripts/test): chromium, the headless browser the web
#    pages are tested in (tests/bot/test_web_browser.py fails without it, it never skips)
#  - a virtualenv in .venv with the project and its dev tools
need_pkgs=()
if [ "${MAFIABOT_SETUP_TESTS:-}" = 1 ]; then
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need_pkgs+=(chromium)
fi
command -v espeak-ng >/dev/null 2>&1 || need_pkgs+=(espeak-ng)
command -v ffmpeg >/dev/null 2>&1 || need_pkgs+=(ffmpeg)
ldconfig -p 2>/dev/null | grep -q 'libopus\.so\.0' || need_pkgs+=(libopus0)
if [ ${#need_pkgs[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup: installing ${need_pkgs[*]}" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
    else
        echo "setup: please install ${need_pkgs[*]} (e.g. sudo apt-get install ${need_pkgs[*]})" >&2
    fi
fi
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# shellcheck disable=SC1091
source .venv/bin/activate
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)
if [ ! -f "$stamp" ]; then
    python -m pip install --quiet --upgrade pip
    python -m pip install --quiet -e '.[dev]'
    touch "$stamp"
fi
