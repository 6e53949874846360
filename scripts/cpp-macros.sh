#!/usr/bin/env bash
# Prints the macro names g++ defines after including every standard header
# and SystemC, except the names C++ reserves anyway (__x, _X): the list in
# codegen/src/emit/cpp_macros.txt (which has a comment header on top).
set -euo pipefail
CXX=${CXX:-g++}
printf '#include <bits/stdc++.h>\n#include <systemc>\n#include <systemc.h>\n' |
  "$CXX" -std=gnu++17 -dM -E -x c++ - |
  awk '{print $2}' | sed 's/(.*//' | grep -v '^__' | grep -v '^_[A-Z]' | LC_ALL=C sort -u
