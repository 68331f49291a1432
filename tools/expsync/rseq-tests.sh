#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rseq selftests "make check" runs, as run_kselftest.sh -t options.
# All the test programs run; run_param_test.sh is left out: it repeats
# param_test over ~200 argument combinations with millions of loops each,
# which takes hours under QEMU TCG.  param_test itself runs with its
# default arguments.
for t in basic_test basic_percpu_ops_test basic_percpu_ops_mm_cid_test \
	 param_test param_test_mm_cid param_test_compare_twice; do
	printf ' -t rseq:%s' "$t"
done
echo
