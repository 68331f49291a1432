#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests.sh SRC OBJ: build and install the expsync, membarrier and
# rseq kselftests against the tree's UAPI headers, into
# OBJ/kselftest/kselftest_install (run_kselftest.sh there).
set -euo pipefail
src=$1 obj=$2
make -C "$src" O="$obj" -s headers
make -C "$src" O="$obj" -s kselftest-install \
	TARGETS="expsync membarrier rseq" \
	KSFT_INSTALL_PATH="$obj/kselftest/kselftest_install" >/dev/null
