#!/usr/bin/env bash
# Installs BitBully (PyPI `bitbully`, a specialised C++ Connect Four 7x6
# solver with Python bindings) in a virtual environment at
# target/bitbully, for the search bench's same-machine baseline:
#
#   scripts/bitbully-setup.sh && cargo bench --features bench --bench search
#
# Needs python3 with venv (Debian: apt-get install python3-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv target/bitbully
target/bitbully/bin/pip install --quiet 'bitbully==0.0.79'
target/bitbully/bin/python -c 'import bitbully.bitbully_core as b; print("bitbully", b.N_COLUMNS, "x", b.N_ROWS)'
