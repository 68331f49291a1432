#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-full: every row of the test plan (tools/expsync/check-plan),
# both tiers: make check's rows, then the long ones (per-prefix series
# compiles, W=1 against the base, the -icount coalescing counts, the rseq
# selftests, trinity and CPU hotplug, each boot parameter alone, the
# isolation ledger, PREEMPT_RT and KASAN).
exec env TIER=full "$(dirname "$0")/check.sh"
