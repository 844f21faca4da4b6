# Sourced by scripts/run and scripts/test: create .venv and install the project once, then activate it.
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
