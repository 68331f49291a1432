#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rseq selftests "make check" runs, as run_kselftest.sh -t options.
# Left out, measured on this machine (QEMU TCG, 2 vCPUs):
#  - basic_percpu_ops_mm_cid_test: 200 threads contending for 2 mm_cids
#    did not finish in 300 s (5m0s real, 9m sys); the same code without
#    mm_cid, basic_percpu_ops_test, runs and passes;
#  - run_param_test.sh: param_test over ~200 argument combinations with
#    millions of loops each, hours under TCG.  param_test,
#    param_test_mm_cid and param_test_compare_twice run with their
#    default arguments (about 1 s each).
for t in basic_test basic_percpu_ops_test param_test param_test_mm_cid \
	 param_test_compare_twice; do
	printf ' -t rseq:%s' "$t"
done
echo
