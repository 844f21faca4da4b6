# Sourced by scripts/run and scripts/test: install what the project needs on a fresh machine, once.
#  - Debian packages for audio (espeak-ng: offline Russian voice; ffmpeg: MP3 decoding; libopus0: Opus)
#  - for the tests (MAFIABOT_SETUP_TESTS=1, set by scripts/test): chromium, the headless browser the web
#    pages are tested in (tests/bot/test_web_browser.py fails without it, it never skips)
#  - RHVoice, the natural offline voice (Debian's non-free component: rhvoice, rhvoice-russian,
#    rhvoice-english), where Debian's archive can be reached; without it the offline voice is espeak-ng
#  - a virtualenv in .venv with the project (scripts/test: and its dev tools; MAFIABOT_RUNTIME_ONLY=1,
#    set by scripts/run: what running needs only)
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
if ! command -v RHVoice-test >/dev/null 2>&1 && [ -z "${MAFIABOT_NO_RHVOICE:-}" ]; then
    codename="$(. /etc/os-release 2>/dev/null && [ "${ID:-}" = debian ] && echo "${VERSION_CODENAME:-}")" || codename=""
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 && [ -n "$codename" ]; then
        # Only for this install: the machine's own apt sources stay as they are.
        nonfree="$(mktemp)"
        echo "deb http://deb.debian.org/debian $codename non-free" >"$nonfree"
        echo "setup: installing RHVoice (Debian non-free) for the offline voice" >&2
        if DEBIAN_FRONTEND=noninteractive apt-get -o Dir::Etc::SourceList="$nonfree" update -qq \
            && DEBIAN_FRONTEND=noninteractive apt-get -o Dir::Etc::SourceList="$nonfree" install -y -qq \
                --no-install-recommends rhvoice rhvoice-russian rhvoice-english >/dev/null; then
            echo "setup: RHVoice installed" >&2
        else
            echo "setup: RHVoice could not be installed; the offline voice is espeak-ng" >&2
        fi
        rm -f "$nonfree"
    else
        echo "setup: RHVoice is not installed (Debian: rhvoice rhvoice-russian rhvoice-english from" \
            "non-free); the offline voice is espeak-ng" >&2
    fi
fi
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# shellcheck disable=SC1091
source .venv/bin/activate
if [ -n "${MAFIABOT_RUNTIME_ONLY:-}" ]; then
    extras=""  # running the bot needs neither the linters nor the test tools
else
    extras="[dev]"
fi
stamp=.venv/.installed$extras-$(sha1sum pyproject.toml | cut -c1-12)
# A virtualenv that has the dev tools has all that running needs too.
if [ ! -f "$stamp" ] && ! { [ -z "$extras" ] && ls .venv/.installed\[dev\]-"$(sha1sum pyproject.toml | cut -c1-12)" >/dev/null 2>&1; }; then
    python -m pip install --quiet --upgrade pip
    python -m pip install --quiet -e ".$extras"
    touch "$stamp"
fi
