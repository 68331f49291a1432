# SPDX-License-Identifier: GPL-2.0
#
# expsync: build the patched 6.12 kernel, boot it under QEMU, test it.
# See README.md.  Everything generated lands in build/.

SHELL		:= /bin/bash
TOP		:= $(CURDIR)
B		:= $(TOP)/build
SRC		:= $(B)/linux
TESTED_SUBLEVEL	:= 118
CONFIG		?= test
JOBS		?= $(shell nproc)
OBJ		= $(B)/obj-$(CONFIG)
KIMAGE		= $(OBJ)/arch/x86/boot/bzImage

# Which fragments of configs/ make up each kernel.
FRAGS_test	:= base test
FRAGS_bench	:= base bench
# The bench kernel without expsync: 6.12 (with the series' first patch, the
# -ENOMEM fix) for make run's side-by-side figures.
FRAGS_bench-noexpsync	:= base bench noexpsync
FRAGS_noexpsync	:= base test noexpsync
FRAGS_kasan	:= base test kasan
FRAGS_rt	:= base test rt
FRAGS		= $(foreach f,$(FRAGS_$(CONFIG)),configs/$(f).config)

# The series' new Kconfig files, as make export-patches leaves them here.
KCONFIGS	:= $(shell find kernel mm arch -name 'Kconfig*' 2>/dev/null)

export CCACHE_DIR	?= $(HOME)/.cache/ccache
export CCACHE_BASEDIR	:= $(B)
export CCACHE_NOHASHDIR	:= 1
export CCACHE_MAXSIZE	?= 25G
KMAKE		= $(MAKE) -C $(SRC) O=$(OBJ) CC="ccache gcc" -j$(JOBS) -s

.PHONY: all deps tree config kernel kernel-612-membarrier vm check check-full mutants run bench compare selftests \
	clean distclean export-patches patches help
all: kernel

help:
	@echo "make run [QUICK=1]   expsync against 6.12 (CONFIG_EXPSYNC=n), report in build/report/"
	@echo "make compare A=dir B=dir   two make run reports (results.json) side by side"
	@echo "make check [ONLY='section ...'] [LIST=1]   the test plan's check tier (CI)"
	@echo "make check-full [ONLY=...] [LIST=1]   every row of the test plan"
	@echo "make mutants [MUTANTS='NN ...']  check that the tests catch each breakage"
	@echo "make vm CMD='...' [SMP=n] [APPEND=...] [ICOUNT=1] [TIMEOUT=s] [CONFIG=test|bench]"
	@echo "make kernel [CONFIG=test|bench|noexpsync|kasan]"
	@echo "make kernel-612-membarrier   the noexpsync test kernel with 6.12's membarrier.c (make run)"
	@echo "make export-patches   regenerate patches/ from build/linux"
	@echo "make patches   the postable series with its new files, in build/patches/"

# --- Host packages -----------------------------------------------------------
deps: $(B)/.deps-ok
$(B)/.deps-ok: tools/expsync/deps.sh
	@mkdir -p $(B)
	tools/expsync/deps.sh
	@touch $@

# --- Base tree + patch series --------------------------------------------------
# Always run: it re-applies the series only when patches/ changed.
tree: deps
	@DISCARD="$(DISCARD)" tools/expsync/tree.sh $(SRC) $(TESTED_SUBLEVEL)

# --- Configuration -----------------------------------------------------------
config: tree
	@$(MAKE) -s $(OBJ)/.config
$(OBJ)/.config: $(FRAGS) $(KCONFIGS) patches/series tools/expsync/config.sh
	tools/expsync/config.sh $(SRC) $(OBJ) $(FRAGS)

kernel: config
	$(KMAKE) bzImage
	@echo "kernel: $(KIMAGE)"

# make run's 6.12 side of the no-ENOMEM figure: the noexpsync test kernel
# with 6.12's kernel/sched/membarrier.c, in build/nomem612/.
kernel-612-membarrier: tree
	tools/expsync/build-612-membarrier.sh

# Kselftests (expsync, membarrier, rseq) built against the tree's headers.
selftests: config
	tools/expsync/selftests.sh $(SRC) $(OBJ)

# --- Running -----------------------------------------------------------------
# CMD reaches the guest verbatim: through the environment, unexpanded by
# make ($(value)) and by the recipe's shell ("$$...").
vm: export EXPSYNC_VM_CMD = $(value CMD)
vm: export EXPSYNC_VM_APPEND = $(value APPEND)
vm:
	@tools/expsync/vm-run.sh --kernel $(KIMAGE) --smp "$(or $(SMP),2)" \
		--append "$$EXPSYNC_VM_APPEND" --icount "$(ICOUNT)" \
		--timeout "$(or $(TIMEOUT),600)" -- "$$EXPSYNC_VM_CMD"

# The test plan, tools/expsync/check-plan: make check runs its "check"
# tier (CI), make check-full every row.  ONLY='section or row ...' runs
# only those rows; LIST=1 prints the plan with each row's last time.
check:
	ONLY="$(ONLY)" LIST="$(LIST)" TIER=check tools/expsync/check.sh

check-full:
	ONLY="$(ONLY)" LIST="$(LIST)" tools/expsync/check-full.sh

# Deliberate breakages, each must be caught by its make check section.
mutants:
	MUTANTS="$(MUTANTS)" tools/expsync/mutants.sh

# QUICK=1: fewer and shorter runs, a first look.  NO_PERF=1: perf made
# unrunnable in the guests (make run must fail and say so).
run: deps
	QUICK="$(QUICK)" NO_PERF="$(NO_PERF)" tools/expsync/run.sh

# Two make run reports side by side: make compare A=dir B=dir.
compare:
	@test -n "$(A)" -a -n "$(B)" || { echo "usage: make compare A=dir B=dir" >&2; exit 2; }
	python3 tools/expsync/report.py compare "$(A)" "$(B)"

bench: run

# The postable series, new files included, in build/patches/ (README.md).
patches: tree
	tools/expsync/make-patches.sh

# Regenerate patches/ from the commits on top of the pristine base, and
# the series' new files at their paths here.
export-patches:
	tools/expsync/export-patches.sh $(SRC)

clean:
	rm -rf $(B)/obj-* $(B)/vm $(B)/report $(B)/check $(B)/mutant

distclean:
	rm -rf $(B)
