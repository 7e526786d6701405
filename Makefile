# SPDX-License-Identifier: GPL-2.0
# lsmconv: convert Linux security modules from the legacy security_operations
# vector to hook lists, and prove the conversion in QEMU.
#
#   make         the main job on the distro tree (see README.md)
#   make check   every test; ends with "N passed, N failed, N skipped"
#   make bench   timings and sizes, as figures
#
# TREE=DIR points every target at another kernel tree (default: the distro
# tree build/linux-source-$(TARGET), unpacked by `make tree`; TARGET is 6.1
# unless given, see scripts/lib.sh).
# A TREE with spaces works; an empty TREE= is an error.

SHELL := /bin/bash
# The one home of the distro trees' names is scripts/lib.sh.  TARGET=6.12
# picks Debian's linux-source-6.12 instead of the default (6.1).
DEFAULT_TARGET := $(shell sed -n 's/^LSMCONV_DEFAULT_TARGET=//p' scripts/lib.sh)
TARGETS := $(shell sed -n 's/^LSMCONV_TARGETS="\(.*\)"$$/\1/p' scripts/lib.sh)
TARGET ?= $(DEFAULT_TARGET)
OBJ_PREFIX := $(shell sed -n 's/^LSMCONV_OBJ_PREFIX=//p' scripts/lib.sh)
ifeq ($(filter $(TARGET),$(TARGETS)),)
$(error TARGET=$(TARGET): not one of the distro targets ($(TARGETS)))
endif
export LSMCONV_TARGET := $(TARGET)
DISTRO := linux-source-$(TARGET)
DISTRO_TREE := build/$(DISTRO)
ifeq ($(origin TREE),undefined)
TREE := $(DISTRO_TREE)
endif
ifeq ($(strip $(TREE)),)
$(error TREE is empty: give a kernel tree directory, or leave TREE unset for the distro tree $(DISTRO_TREE))
endif
ifneq ($(findstring ",$(TREE))$(findstring $$,$(TREE))$(findstring `,$(TREE)),)
$(error TREE=$(TREE): a path with ", $$ or ` is not supported; use a symlink)
endif

BASELINE := build/baseline
SERIES := converted-patches/series

.PHONY: all deps tree kernel boot baseline series verify v21 port check bench clean shellcheck

# The main job: the tree, the rewound baseline, the series regenerated from
# it, and the proof (build every patch, fixed point, equivalence, stacking).
all: verify

deps:
	@scripts/deps.sh

tree: deps
ifeq ($(TREE),$(DISTRO_TREE))
	@scripts/tree.sh
else
	@scripts/tree.sh "$(TREE)"
endif

kernel: tree
	@qemu-boot/build-kernel.sh --tree "$(TREE)" --name lsm >/dev/null

boot: tree
	@qemu-boot/boot-variants.sh --tree "$(TREE)"

# The pre-stacking baseline (build/baseline) and its patch series
# (converted-patches/rewind), derived mechanically from the tree.
baseline: tree
	@cocci/rewind/rewind.sh --tree "$(TREE)" --out $(BASELINE)

# The stacking series regenerated from the baseline by lsmconv's rules
# (converted-patches/series: cover letter, patches, report.md).
series: baseline
	@./convert.sh series --baseline $(BASELINE) --target "$(TREE)" --out $(SERIES)

# Apply the series to the baseline, build every step, compare with the tree,
# boot both and compare the decisions (docs/verify.md).
verify: series
	@verify/pipeline.sh --baseline $(BASELINE) --series $(SERIES) --distro "$(TREE)"

# The 2015 series on its own kernel: the 4.0 tree v21 was written for
# (../shared/trees/linux-4.0-v21base.tar.xz, or V21_TREE=TARBALL|DIR: a
# user's pre-4.2 tree) stacked in its own version, compared with the v21
# patches (../shared/seeds), every step built, baseline and stacked kernel
# booted and compared (scripts/v21.sh, docs/series.md).
v21: deps
	@scripts/v21.sh $(if $(V21_TREE),--tree "$(V21_TREE)")

# Port one legacy module: convert, build into a scratch copy of the tree,
# boot, check /sys/kernel/security/lsm and the module's tests/, compare with
# the legacy form on a legacy baseline (docs/porting.md).
#   make port MODULE=DIR [NAME=name] [TREE=DIR] [FINISHED=1] [BASELINE=TREE]
# FINISHED=1 builds DIR/finished/ (your hand-finished port) instead of the
# tool output.  BASELINE= the legacy tree to compare on (default: the
# rewound build/baseline, then Linux 4.0 in build/v21/base when make v21
# unpacked it; none: no comparison).
port: tree
	@test -n "$(MODULE)" || { echo "usage: make port MODULE=DIR [NAME=name] [TREE=DIR] [FINISHED=1] [BASELINE=TREE]" >&2; exit 2; }
	@verify/port.sh --target "$(TREE)" $(if $(FINISHED),--finished) $(if $(BASELINE),--baseline "$(BASELINE)") "$(MODULE)$(if $(NAME),:$(NAME))"

# make check unpacks every distro target (6.12 too), all at once: tests/port
# ports its epoch fixtures to each, tests/port-boot and tests/port-targets
# build and boot the finished ports on each.
check: deps
	@pids=(); rc=0; \
	for t in $(filter-out $(TARGET),$(TARGETS)); do \
		$(MAKE) --no-print-directory tree TARGET=$$t TREE=build/linux-source-$$t & pids+=($$!); \
	done; \
	$(MAKE) --no-print-directory tree || rc=$$?; \
	for p in "$${pids[@]}"; do wait "$$p" || rc=1; done; \
	exit $$rc
	@tests/run.sh

# ONLY=port,convert runs those sections of scripts/bench.sh alone.
bench: tree
	@scripts/bench.sh --tree "$(TREE)" $(if $(ONLY),--only "$(ONLY)")

shellcheck:
	@shellcheck -x $$(git ls-files '*.sh') qemu-boot/guest/init qemu-boot/guest/lsmtest-init qemu-boot/guest/tests/*

# The unpacked trees and build/ccache stay; the kernels' object directories
# inside the trees go (scripts/lib.sh, kbuild_objdir).
clean:
	rm -rf build/kernels build/initramfs build/selftests build/headers build/boot build/test-logs \
		build/baseline build/verify build/pipeline-test build/v21 build/v21-test build/own
	find build -maxdepth 4 -type d -name '$(OBJ_PREFIX)*' -prune -exec rm -rf {} + 2>/dev/null || true
