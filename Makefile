# The hotplug kernel's build: explicit, one object list per directory.
# `make` builds build/kernel.elf (with DWARF, for GDB) and build/Image
# (arm64 Image header, for QEMU -kernel and U-Boot booti); `make help`
# lists the targets, from the ## comments beside them.

CROSS_COMPILE ?= aarch64-linux-gnu-
CC := $(CROSS_COMPILE)gcc
LD := $(CROSS_COMPILE)ld
OBJCOPY := $(CROSS_COMPILE)objcopy
NM := $(CROSS_COMPILE)nm
B := build

LIBFDT_A := /usr/lib/aarch64-linux-gnu/libfdt.a
LIBFDT_HDRS := /usr/include/libfdt.h /usr/include/fdt.h /usr/include/libfdt_env.h
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

## make DEBUG=1    build with -Og for stepping in GDB
# DEBUG=1: -Og for stepping in GDB (frame pointers are always on).
# NR_CPUS=N: the most CPUs the kernel can run on (include/lib/cpumask.h has
# the default). Same build/ directory: $(B)/.opt records both, so switching
# rebuilds all; B=DIR builds elsewhere (the tests keep a 4096 build apart).
OPT := -O2
ifeq ($(DEBUG),1)
OPT := -Og
endif
## make NR_CPUS=N  build for at most N CPUs (default: include/lib/cpumask.h);
##                 switching rebuilds all (B=DIR: build in DIR, not build/)
ifneq ($(NR_CPUS),)
OPT += -DNR_CPUS=$(NR_CPUS)
endif
# TESTS=0: no in-kernel tests, tortures or lkdtm; BENCH=0: no benchmarks
# and no power comparisons. `make lean` builds both off in build/lean/: the
# mechanism and the governor alone (tools/layers.toml's experiments left
# out), which must link and boot make run's demo.
TESTS ?= 1
BENCH ?= 1
ifeq ($(TESTS),1)
OPT += -DCONFIG_TESTS -DCONFIG_FAULT_INJECTION
endif
ifeq ($(BENCH),1)
OPT += -DCONFIG_BENCH
endif
# SANITIZE=1: the sanitizing build (docs/reliability.md), in build/sanitize/
# unless B= says otherwise; `make sanitize` makes it beside the normal one.
# Each detector is a CONFIG_ word in OPT, its compiler flags in SAN_CFLAGS
# and its runtime in san-y. The objects in nosan-y are built without
# SAN_CFLAGS: they run with the MMU off, or are a detector's runtime.
SANITIZE ?= 0
SAN_CFLAGS :=
san-y :=
nosan-y :=
ifeq ($(SANITIZE),1)
B := build/sanitize
# KASAN: every load and store calls the runtime (kernel/debug/kasan.c),
# which keeps one shadow byte per 8 bytes at KASAN_SHADOW_START
# (include/asm/memory.h: the offset is that start minus PAGE_OFFSET / 8).
# Stack frames and globals carry no redzones.
OPT += -DCONFIG_KASAN
SAN_CFLAGS += -fsanitize=kernel-address \
	-fasan-shadow-offset=0xe000000000000000 \
	--param asan-instrumentation-with-call-threshold=0 \
	--param asan-stack=0 --param asan-globals=0
# UBSAN: the checks that mean something in a kernel, with the handlers of
# kernel/debug/ubsan.c; each reports and the code goes on.
OPT += -DCONFIG_UBSAN
SAN_CFLAGS += -fsanitize=shift,integer-divide-by-zero,unreachable,vla-bound \
	-fsanitize=null,signed-integer-overflow,bounds,alignment,object-size \
	-fsanitize=bool,enum,builtin,nonnull-attribute,returns-nonnull-attribute
# lockdep and PROVE_RCU (kernel/debug/lockdep.c), as LOCKDEP=1 below.
LOCKDEP := 1
san-y += kernel/debug/kasan.o kernel/debug/ubsan.o
nosan-y += arch/arm64/early_mmu.o kernel/debug/kasan.o kernel/debug/ubsan.o \
	kernel/mm/kmalloc.o
endif
## make LOCKDEP=1  lockdep and PROVE_RCU, in build/lockdep/ (Image there)
# LOCKDEP=1: lockdep and PROVE_RCU (kernel/debug/lockdep.c), built in
# build/lockdep/ unless B is not the default (B=DIR, or a build that sets
# it first). Off, their hooks are empty macros.
LOCKDEP ?= 0
ifeq ($(LOCKDEP),1)
OPT += -DCONFIG_PROVE_LOCKING -DCONFIG_PROVE_RCU
ifeq ($(B),build)
B := build/lockdep
endif
endif
# KCSAN=1: the data-race detector (kernel/debug/kcsan.c), in build/kcsan/
# unless B= says otherwise; GCC refuses -fsanitize=thread beside KASAN, so
# it is a build of its own. Every plain access calls the runtime, volatile
# ones (READ_ONCE/WRITE_ONCE) and __atomic builtins call their marked
# variants; fences stay as they are, uninstrumented (-Wno-tsan: the
# runtime does not model ordering, only overlap). The objects in nokcsan-y are built without the instrumentation
# (-fno-sanitize=thread after it), each for the reason given there.
KCSAN ?= 0
kcsan-y :=
nokcsan-y :=
ifeq ($(KCSAN),1)
ifneq ($(origin B),command line)
B := build/kcsan
endif
OPT += -DCONFIG_KCSAN -fsanitize=thread --param tsan-distinguish-volatile=1 \
	--param tsan-instrument-func-entry-exit=0 -Wno-tsan
kcsan-y += kernel/debug/kcsan.o
# kcsan.o: the runtime itself. early_mmu.o: runs with the MMU off, before
# there is a task or a timer. stacktrace.o, kallsyms.o: the runtime walks
# and names stacks with them while it holds a watchpoint. printk.o,
# vsprintf.o and the UARTs: a report prints through them (the runtime's
# own flag keeps a report from recursing; these stay out so that a race
# inside the console never reports from inside a report).
nokcsan-y += kernel/debug/kcsan.o arch/arm64/early_mmu.o \
	arch/arm64/stacktrace.o kernel/debug/kallsyms.o kernel/printk.o \
	lib/vsprintf.o drivers/serial/pl011.o drivers/serial/bcm2835_aux_uart.o
endif
GDB_PORT ?= 1234

CFLAGS := -std=gnu11 $(OPT) -g -Wall -Wextra -Werror -Wno-unused-parameter \
	-ffreestanding -nostdinc -isystem $(B)/gcc-include \
	-Iinclude -Iinclude/libc -I$(B)/include \
	-march=armv8-a -mgeneral-regs-only -mno-outline-atomics \
	-mcmodel=small -fno-pie -fno-pic -fno-common \
	-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-fstack-protector-strong -fno-strict-aliasing \
	-DKERNEL_VERSION='"$(VERSION)"'
ASFLAGS := -D__ASSEMBLER__ -g -Iinclude -march=armv8-a
LDFLAGS := -nostdlib -static -no-pie -z max-page-size=4096 -z norelro \
	--build-id=none -T linker.ld

# One object list per directory (tools/layers.toml says who may use whom).
arch-y := $(addprefix arch/arm64/, head.o entry.o cache.o smccc.o \
	early_mmu.o mmu.o traps.o stacktrace.o switch.o smp.o smp_faults.o \
	fw_share.o pen.o vmap_stack.o sleep.o suspend.o)
kernel-y := $(addprefix kernel/, main.o printk.o params.o devicetree.o \
	reboot.o board.o cpu.o cpu_array.o smp.o irq.o stop_machine.o shell.o \
	console_input.o)
time-y := $(addprefix kernel/time/, timekeeping.o timer.o tick.o \
	tick_broadcast.o)
mm-y := $(addprefix kernel/mm/, memblock.o page_alloc.o kmalloc.o \
	kmalloc_cache.o percpu.o percpu_snapshot.o)
sched-y := $(addprefix kernel/sched/, core.o kthread.o idle.o wait.o \
	mutex.o hotplug.o hung_task.o pack.o shell.o cpufreq.o)
rcu-y := $(addprefix kernel/rcu/, tree.o callbacks.o expedited.o stall.o \
	stats.o)
trace-y := $(addprefix kernel/trace/, ring.o trace.o dump.o)
hotplug-y := $(addprefix kernel/hotplug/, core.o boot.o shell.o stats.o)
governor-y := $(addprefix kernel/governor/, governor.o policy.o model.o \
	boot.o workload.o shell.o)
debug-y := $(addprefix kernel/debug/, panic.o kallsyms.o stackprotector.o \
	smp_processor_id.o fault.o)
ifeq ($(LOCKDEP),1)
debug-y += kernel/debug/lockdep.o
endif
lib-y := $(addprefix lib/, string.o vsprintf.o bitmap.o cpumask.o \
	cmdline.o fdt.o stats.o)
drivers-y := $(addprefix drivers/, serial/pl011.o serial/bcm2835_aux_uart.o \
	firmware/psci.o firmware/psci_node.o firmware/spin_table.o firmware/pen.o \
	irqchip/irq-gic-common.o irqchip/irq-gic.o irqchip/irq-gic-v3.o \
	irqchip/irq-bcm2836.o watchdog/bcm2835_wdt.o \
	clocksource/arm_arch_timer.o clocksource/arm_arch_timer_node.o \
	cpuidle/cpuidle.o cpuidle/cpuidle-psci.o cpuidle/dt_idle_states.o \
	cpuidle/menu.o cpuidle/qos.o cpuidle/shell.o)
# The experiments (tools/layers.toml): in-kernel tests, tortures, lkdtm...
tests-y := $(addprefix kernel/tests/, kunit.o lkdtm.o rcu_torture.o \
	boot_test.o mm_test.o mmu_test.o smp_test.o sched_test.o rcu_test.o hotplug_test.o hotplug_fault_test.o \
	hotplug_readers_test.o hotplug_sweep_test.o hotplug_check.o \
	stress.o irq_test.o timer_test.o \
	governor_test.o psci_test.o trace_test.o cpuidle_test.o fault_test.o \
	sched_pack_test.o suspend_test.o)
# ... and benchmarks, the firmware floor, the power comparisons.
bench-y := $(addprefix kernel/bench/, bench.o kmalloc.o rcu.o trace.o \
	hotplug.o scale.o psci_floor.o cpuidle.o designs/designs.o \
	designs/rwlock.o designs/percpu_rwsem.o designs/stop_machine.o \
	power/run.o power/strategy.o psci_floor_entry.o)
# Fault points that live beside their code (<kernel/fault.h>): TESTS=1 only.
faults-y := kernel/hotplug/core_faults.o drivers/firmware/psci_faults.o
ifneq ($(TESTS),1)
tests-y :=
faults-y :=
endif
ifneq ($(BENCH),1)
bench-y :=
endif
OBJS := $(addprefix $(B)/,$(arch-y) $(kernel-y) $(time-y) $(mm-y) $(sched-y) \
	$(rcu-y) $(hotplug-y) $(trace-y) $(governor-y) $(debug-y) $(lib-y) \
	$(drivers-y) $(faults-y) $(tests-y) $(bench-y) $(san-y) $(kcsan-y))

.PHONY: all lean sanitize kcsan run test test-images tfa-virt host-test board-test sdcard model sweep stress torture fuzz power power-stats bench bench-scale bench-linux trace test-scale nr-cpus-cost clean help setup gdb FORCE
## make           build build/kernel.elf and build/Image (or say what is
##                 missing: make setup installs it)
all: $(B)/Image $(B)/kernel.elf

## make help      this list, from the Makefile's ## comments
help:
	@sed -n 's/^## \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

# Tools: installed through apt when missing (tools/setup.sh says what).
$(B)/.setup-ok: tools/setup.sh
	@mkdir -p $(B)
	tools/setup.sh --quiet
	@touch $@
# Building alone only checks: a plain make says what is missing and how to
# get it, and installs nothing.
$(B)/.build-ok: tools/setup.sh
	@mkdir -p $(B)
	@tools/setup.sh --check-build
	@touch $@
## make setup     install what the build, qemu.sh and make test need
##                 (Debian packages, as root; tools/setup.sh)
setup: $(B)/.setup-ok

# The compiler's own freestanding headers (stddef.h, stdint.h, stdarg.h),
# and libfdt's headers from Debian's libfdt-dev: never committed here.
$(B)/gcc-include: | $(B)/.build-ok
	ln -sfn "$$($(CC) -print-file-name=include)" $@
$(B)/include/libfdt.h: | $(B)/.build-ok
	@mkdir -p $(B)/include
	cp $(LIBFDT_HDRS) $(B)/include/

# Each object depends on the headers it included (-MMD -MP: .d files).
DEPFLAGS = -MMD -MP
-include $(OBJS:.o=.d) $(B)/kallsyms0.d $(B)/kallsyms.d
GENERATED := $(B)/include/libfdt.h $(B)/gcc-include

$(B)/.opt: FORCE
	@mkdir -p $(B)
	@echo '$(OPT) $(SAN_CFLAGS)' | cmp -s - $@ || echo '$(OPT) $(SAN_CFLAGS)' > $@

$(B)/%.o: %.c Makefile $(B)/.opt | $(GENERATED)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) $(SAN_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(addprefix $(B)/,$(nosan-y)): SAN_CFLAGS :=

# Runs with the MMU off: Device memory faults on unaligned accesses.
$(B)/arch/arm64/early_mmu.o: CFLAGS += -mstrict-align -fno-stack-protector
$(addprefix $(B)/,$(nokcsan-y)): CFLAGS += -fno-sanitize=thread
# It changes the canary: its own frames must not check it.
$(B)/kernel/debug/stackprotector.o: CFLAGS += -fno-stack-protector

$(B)/%.o: %.S Makefile | $(GENERATED)
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(ASFLAGS) $(DEPFLAGS) -c $< -o $@

# Two link passes: the symbol table of pass 1 is linked into pass 2.
# Text comes first and the table lives after it, so no text symbol moves;
# the check below proves it by regenerating the table from the result.
$(B)/kallsyms0.S: tools/kallsyms.py
	@mkdir -p $(B)
	echo | tools/kallsyms.py > $@
$(B)/kallsyms0.o $(B)/kallsyms.o: $(B)/%.o: $(B)/%.S | $(B)/.build-ok
	@echo "  AS      $<"
	@$(CC) $(ASFLAGS) -c $< -o $@
$(B)/kernel.pass1.elf: $(OBJS) $(B)/kallsyms0.o linker.ld
	@echo "  LD      $@"
	@$(LD) $(LDFLAGS) -o $@ $(OBJS) $(B)/kallsyms0.o $(LIBFDT_A)
$(B)/kallsyms.S: $(B)/kernel.pass1.elf tools/kallsyms.py
	$(NM) -n -S $< | tools/kallsyms.py > $@
$(B)/kernel.elf: $(OBJS) $(B)/kallsyms.o linker.ld
	@echo "  LD      $@"
	@$(LD) $(LDFLAGS) -o $@ $(OBJS) $(B)/kallsyms.o $(LIBFDT_A)
	@$(NM) -n -S $@ | tools/kallsyms.py | cmp -s - $(B)/kallsyms.S || \
		{ echo "kallsyms: text moved between link passes"; rm $@; exit 1; }
$(B)/Image: $(B)/kernel.elf
	@echo "  OBJCOPY $@"
	@$(OBJCOPY) -O binary $< $@

## make run        the demo: governor + workload in QEMU, then the shell
##                 (installs what is missing)
# The demo: 4 CPUs under the rqdepth governor, the phased workload with a
# status line each second (~25 s), then the shell.
run: $(B)/.setup-ok $(B)/Image
	./qemu.sh --smp 4 --append "policy=rqdepth demo"

# The images the matrix boots, built side by side: make test runs without
# -j, and the sanitizing and KCSAN builds are each as long as the normal
# one. The tools are installed first, once.
test-images: $(B)/Image $(B)/lean/Image $(B)/sanitize/Image $(B)/kcsan/Image \
	tfa-virt
## make test       boot the test matrix and run host tests
test: $(B)/.setup-ok
	@$(MAKE) --no-print-directory -j2 test-images
	python3 tests/run.py

# TF-A for QEMU virt (qemu.sh --machine virt --firmware tfa), built once
# from Debian's source package into $(B)/tfa/ (~30 s). Where it cannot be
# had, $(B)/tfa/unavailable says why and its boots skip.
tfa-virt: $(B)/.setup-ok
	@tools/tfa/build-qemu.sh $(B)/tfa

## make lean       also build without tests, benchmarks and experiments
##                 (TESTS=0 BENCH=0, build/lean/Image); both sizes
# The lean build (TESTS=0 BENCH=0) beside the full one, and their sizes.
lean: $(B)/lean/Image $(B)/Image
	@ls -l $(B)/Image $(B)/lean/Image | awk '{ print $$5, $$NF }'
$(B)/lean/Image: FORCE
	@$(MAKE) --no-print-directory B=$(B)/lean TESTS=0 BENCH=0 all

## make sanitize   also build the sanitizing kernel (SANITIZE=1: KASAN,
##                 UBSAN; build/sanitize/Image); both sizes
# The sanitizing build (SANITIZE=1) beside the normal one.
sanitize: $(B)/sanitize/Image
	@ls -l $(B)/Image $(B)/sanitize/Image 2>/dev/null | awk '{ print $$5, $$NF }'
$(B)/sanitize/Image: FORCE
	@$(MAKE) --no-print-directory B=$(B)/sanitize SANITIZE=1 all

# The lockdep build (LOCKDEP=1) beside the full one, for make test's
# lockdep boots (tests/matrix.py LOCKDEP_IMAGE).
$(B)/lockdep/Image: FORCE
	@$(MAKE) --no-print-directory B=$(B)/lockdep LOCKDEP=1 all
## make kcsan      also build the data-race detector's kernel (KCSAN=1,
##                 build/kcsan/Image; docs/reliability.md); both sizes
# The data-race detector's build (KCSAN=1) beside the normal one, and
# their sizes.
kcsan: $(B)/kcsan/Image $(B)/Image
	@ls -l $(B)/Image $(B)/kcsan/Image | awk '{ print $$5, $$NF }'
$(B)/kcsan/Image: FORCE
	@$(MAKE) --no-print-directory B=$(B)/kcsan KCSAN=1 all

## make test-scale GICv3 with 64, 256 and 512 CPUs: boot, SMP and hotplug
# GICv3 at scale: 64 CPUs (boot, SMP and hotplug suites) and 256 CPUs (boot,
# hotplug cycles from the shell). Minutes per boot under TCG.
test-scale: $(B)/.setup-ok $(B)/Image
	python3 tests/run.py --scale --jobs 1

## make nr-cpus-cost  the 256 and 4096 builds side by side: what each
##                 NR_CPUS-sized symbol costs (tools/nr_cpus_cost.py)
# What NR_CPUS costs: builds for 256 and 4096 CPUs (build/nr-N) symbol by
# symbol, and booted on -smp 4 (docs/scale.md).
nr-cpus-cost: $(B)/.setup-ok
	python3 tools/nr_cpus_cost.py

## make bench      the four hotplug designs side by side, -smp 4 and 8,
##                 raspi3b with TF-A; firmware vs kernel share of each
##                 down and up: tables and build/bench.json (docs/benchmarks.md)
# One boot per configuration, each measuring all four designs side by side.
bench: $(B)/.setup-ok $(B)/Image
	python3 tools/bench.py

# One boot each at -smp 4, 64, 256 and 512 (GICv3): walks of every CPU,
# wake-ups, hotplug and grace periods against the CPU count; a table,
# build/scale.json, .csv and .png. SCALE_CPUS=4,64 for fewer counts,
# SCALE_BOOTS=3 for each figure's median over three boots.
SCALE_CPUS ?= 4,64,128,256,512
SCALE_BOOTS ?= 1
## make bench-scale  -smp 4, 64, 128, 256, 512: walks of every CPU, wake-ups,
##                 hotplug, grace periods, boot against the CPU count:
##                 build/scale.json, .csv, .png (SCALE_CPUS=4,64, SCALE_BOOTS=3)
bench-scale: $(B)/.setup-ok $(B)/Image
	python3 tools/bench_scale.py --cpus $(SCALE_CPUS) --boots $(SCALE_BOOTS)

## make bench-linux  Debian's Linux on the same QEMU: boot, offline+online
bench-linux: $(B)/.setup-ok $(B)/Image
	python3 tools/bench_linux.py

# Every generated figure of docs/benchmarks.md, power.md and scale.md
# measured again: make bench, make bench-scale (FIGURES_SCALE_CPUS, three
# boots each) and make power (POWER_SCALE) one after the other, about 10
# minutes; their JSON goes to docs/figures/ and their plots to docs/,
# stamped with the build and QEMU, and tools/figures.py remakes the docs'
# marked blocks. One commit then. 128 CPUs are left out: docs/scale.md
# says why.
FIGURES_SCALE_CPUS ?= 4,64,256,512
FIGURES_SCALE_BOOTS ?= 3
.PHONY: figures
## make figures    re-measure (bench, bench-scale, power) and rewrite the
##                 docs' tables from docs/figures/*.json (tools/figures.py)
figures: $(B)/.setup-ok $(B)/Image
	python3 tools/bench.py --out $(B)/bench.json
	python3 tools/bench_scale.py --cpus $(FIGURES_SCALE_CPUS) \
		--boots $(FIGURES_SCALE_BOOTS) --out $(B)/scale.json
	$(MAKE) --no-print-directory power
	$(MAKE) --no-print-directory power-stats
	python3 tools/figures.py --take $(B)

## make trace      CPUs down and up under load, traced: build/trace.json for
##                 ui.perfetto.dev or chrome://tracing (docs/trace.md)
# -smp 4, the RCU torture's readers busy while CPUs go down and up, every
# event traced and dumped; the timeline checked and written.
trace: $(B)/.setup-ok $(B)/Image
	python3 tools/trace.py --run --out $(B)/trace.json

# One boot runs the phased workload under each governor policy, then every
# power strategy (hotplug, pack, idle states, ...) and hotplug+idle at each
# fixed down delay of POWER_DELAYS on the phased, phone and storm
# workloads (about 10 minutes), prints the tables; the tools draw
# build/power.png (policies over time), build/power_strategies.png and the
# sensitivity sweep build/power_sweep.png, with their CSVs.
POWER_SCALE ?= 100
POWER_DELAYS ?= 50,200,500,2000
## make power      compare governor policies and power strategies (hotplug,
##                 pack, idle states) on three workloads: tables, CSVs,
##                 build/power.png, power_strategies.png, power_sweep.png
##                 (POWER_SCALE=N: workload length in percent, default 100)
power: $(B)/.setup-ok $(B)/Image
	./qemu.sh --smp 4 --timeout 2400 \
		--append "power=all power.strategies power.down_delays=$(POWER_DELAYS) power.scale=$(POWER_SCALE) hz=250 poweroff" \
		> $(B)/power.log 2>&1 || { tail -20 $(B)/power.log; exit 1; }
	@grep -E '^\[ *[0-9.]+\] power: ' $(B)/power.log | sed 's/^\[[^]]*\] //'
	tools/power_plot.py $(B)/power.log $(B)
	tools/power_strategies.py $(B)/power.log $(B)

# Every strategy over POWER_BOOTS boots, each in a shuffled order with an
# A/A control, at POWER_STATS_SCALE percent: medians, interquartile ranges
# and which changes exceed the noise (tools/power_stats.py);
# build/power_stats.md and .json.
POWER_BOOTS ?= 5
POWER_STATS_SCALE ?= 20
## make power-stats  the strategies over POWER_BOOTS shuffled boots with an
##                 A/A control: medians and interquartile ranges
power-stats: $(B)/.setup-ok $(B)/Image
	python3 tools/power_stats.py --boots $(POWER_BOOTS) --scale $(POWER_STATS_SCALE) $(B)

## make gdb        gdb-multiarch on a QEMU started with ./qemu.sh --gdb
##                 (GDB_PORT=N for ./qemu.sh --gdb --gdb-port N)
# Attach to `./qemu.sh --gdb [--gdb-port N]` (another terminal), helpers
# loaded: make gdb [GDB_PORT=N]. On a TF-A boot (--firmware tfa) hp-tfa adds
# BL31's symbols, from the build under build/tfa/ that the target runs, or
# from BL31=FILE.
gdb: $(B)/.setup-ok $(B)/kernel.elf
	gdb-multiarch -q $(B)/kernel.elf -ex 'target remote :$(GDB_PORT)' \
		-ex 'source tools/gdb/hotplug.py' -ex 'hp-tfa $(BL31)'

## make host-test  host unit tests of lib/ (ASan + UBSan)
host-test: $(B)/.setup-ok
	$(MAKE) -C tests/host

## make board-test board description over real DTBs vs dtc; SD-card images
# kernel/board.c built natively over Pi 3/4/5, RK3399 and A64 trees, each
# fact held against dtc's reading; the SD-card images read back.
board-test: $(B)/.setup-ok
	$(MAKE) -s -C tests/boards

## make sdcard BOARD=rpi3|rpi4|rpi5 [FIRMWARE=tfa] [APPEND="ARGS"]
##                 SD-card image build/sdcard-BOARD.img (docs/boards.md)
# A Raspberry Pi SD card: kernel, config.txt, cmdline.txt (APPEND) and the
# board's device tree; the firmware files are added by hand (docs/boards.md).
sdcard: $(B)/.setup-ok $(B)/Image
	@test -n "$(BOARD)" || { echo "make sdcard BOARD=rpi3|rpi4|rpi5 [FIRMWARE=tfa]"; exit 2; }
	tools/mksdcard.sh $(if $(FIRMWARE),--firmware $(FIRMWARE)) "$(BOARD)" $(B)/Image \
		$(B)/sdcard-$(BOARD)$(if $(FIRMWARE),-$(FIRMWARE)).img "$(APPEND)"

## make sweep      CPU down/up after every fault and pair of faults, each
##                 reader design, PSCI and the pen (tools/sweep.py)
# The whole fault sweep (kernel/tests/hotplug_sweep_test.c): make test
# runs a sample of it.
sweep: $(B)/.setup-ok all
	tools/sweep.py

# The randomized hotplug stress (kernel/tests/stress.c) for SECS seconds:
# SEED=N repeats a draw, SMP=N CPUs, QEMU="--gic 3" more qemu.sh options.
# The log is $(B)/stress.log; it ends with the seed and the violations.
SECS ?= 60
SMP ?= 4
## make stress     the randomized hotplug stress [SEED=N] [SECS=60] [SMP=4]
##                 [QEMU="qemu.sh options"]: all at once, invariants checked
stress: $(B)/.setup-ok $(B)/Image
	./qemu.sh --smp $(SMP) $(QEMU) --timeout $$(($(SECS) + 300)) \
		--append "stress=$(SECS) $(if $(SEED),stress.seed=$(SEED)) poweroff" \
		> $(B)/stress.log 2>&1 || { tail -40 $(B)/stress.log; exit 1; }
	@grep -E 'stress: [0-9]+ ms:|# stress_run:' $(B)/stress.log | tail -3
	@tr -d '\r' < $(B)/stress.log | grep -qE '\] ok 1 stress$$' || \
		{ grep -E 'stress|not ok' $(B)/stress.log | tail -60; exit 1; }

## make torture    RCU + hotplug tortures on -smp 4 and 8 until 10k cycles + 100k GPs
# Promela model of cpu_down()/cpu_up() against RCU, checked with spin.
# Long RCU + hotplug tortures (docs/reliability.md): TORTURE_GOAL per boot,
# at most TORTURE_SECS.
torture: $(B)/.setup-ok $(B)/Image
	tools/torture.sh

## make model      spin model check of hotplug vs RCU (docs/model.md)
model: $(B)/.setup-ok
	tools/model/check.sh

## make fuzz       libFuzzer on the device-tree code (FUZZ_TIME=600 s, docs/fuzzing.md)
fuzz: $(B)/.setup-ok
	$(MAKE) -C tests/fuzz long

clean:
	rm -rf $(B)
