# hotplug kernel: a flat, explicit build. `make` builds build/kernel.elf
# (with DWARF, for GDB) and build/Image (arm64 Image header, for QEMU
# -kernel and U-Boot booti). `make help` lists the other targets.

CROSS_COMPILE ?= aarch64-linux-gnu-
CC := $(CROSS_COMPILE)gcc
LD := $(CROSS_COMPILE)ld
OBJCOPY := $(CROSS_COMPILE)objcopy
NM := $(CROSS_COMPILE)nm
B := build

LIBFDT_A := /usr/lib/aarch64-linux-gnu/libfdt.a
LIBFDT_HDRS := /usr/include/libfdt.h /usr/include/fdt.h /usr/include/libfdt_env.h
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

# DEBUG=1: -Og for stepping in GDB (frame pointers are always on). Same
# build/ directory: $(B)/.opt records the level, so switching rebuilds all.
OPT := -O2
ifeq ($(DEBUG),1)
OPT := -Og
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

ARCH_OBJS := arch/arm64/head.o arch/arm64/entry.o arch/arm64/cache.o \
	arch/arm64/smccc.o arch/arm64/early_mmu.o arch/arm64/mmu.o \
	arch/arm64/traps.o arch/arm64/stacktrace.o arch/arm64/switch.o \
	arch/arm64/smp.o arch/arm64/pen.o arch/arm64/vmap_stack.o
KERNEL_OBJS := kernel/main.o kernel/printk.o kernel/panic.o \
	kernel/kallsyms.o kernel/params.o kernel/devicetree.o kernel/board.o \
	kernel/memblock.o kernel/page_alloc.o kernel/kmalloc.o \
	kernel/kunit.o kernel/fault_inject.o kernel/fault_hotplug.o kernel/stackprotector.o \
	kernel/time.o kernel/percpu.o kernel/smp_processor_id.o kernel/cpu.o kernel/smp.o \
	kernel/sched/core.o kernel/sched/kthread.o kernel/sched/idle.o \
	kernel/sched/wait.o kernel/sched/mutex.o kernel/sched/hotplug.o kernel/sched/hung_task.o \
	kernel/hotplug.o kernel/hotplug_sync.o kernel/stop_machine.o kernel/hotplug_bench.o \
	kernel/hotplug_shell.o kernel/cpu_pen.o kernel/shell.o \
	kernel/console_input.o kernel/rcu/tree.o kernel/rcu/callbacks.o \
	kernel/rcu/expedited.o kernel/rcu/stall.o kernel/rcu/stats.o kernel/rcu/bench.o \
	kernel/rcu/torture.o \
	kernel/bench.o kernel/irq.o kernel/timer.o kernel/tick.o \
	kernel/tests/mm_test.o kernel/tests/mmu_test.o \
	kernel/tests/boot_test.o kernel/tests/smp_test.o kernel/tests/sched_test.o \
	kernel/tests/rcu_test.o kernel/tests/hotplug_test.o \
	kernel/tests/irq_test.o kernel/tests/timer_test.o \
	kernel/power/governor.o kernel/power/policy.o kernel/power/model.o \
	kernel/power/workload.o kernel/power/run.o kernel/power/shell.o \
	kernel/tests/governor_test.o
LIB_OBJS := lib/string.o lib/vsprintf.o lib/bitmap.o lib/cpumask.o \
	lib/cmdline.o lib/fdt.o lib/stats.o
DRIVER_OBJS := drivers/serial/pl011.o drivers/serial/bcm2835_aux_uart.o \
	drivers/firmware/psci.o drivers/firmware/spin_table.o \
	drivers/irqchip/irq-gic-common.o drivers/irqchip/irq-gic.o \
	drivers/irqchip/irq-gic-v3.o drivers/irqchip/irq-bcm2836.o \
	drivers/watchdog/bcm2835_wdt.o drivers/clocksource/arm_arch_timer.o
OBJS := $(addprefix $(B)/,$(ARCH_OBJS) $(KERNEL_OBJS) $(LIB_OBJS) $(DRIVER_OBJS))

.PHONY: all run test host-test board-test sdcard model torture fuzz power bench bench-linux test-scale clean help setup gdb FORCE
all: $(B)/Image $(B)/kernel.elf

help:
	@echo "make            build build/kernel.elf and build/Image"
	@echo "make run        the demo: governor + workload in QEMU, then the shell"
	@echo "                (installs what is missing)"
	@echo "make test       boot the test matrix and run host tests"
	@echo "make test-scale GICv3 with 64 and 256 CPUs: boot, SMP and hotplug"
	@echo "make power      compare governor policies: table, build/power.csv, build/power.png"
	@echo "                (POWER_SCALE=N: workload length in percent, default 100)"
	@echo "make bench      the four hotplug designs side by side, -smp 4 and 8:"
	@echo "                a table and build/bench.json (docs/benchmarks.md)"
	@echo "make bench-linux  Debian's Linux on the same QEMU: boot, offline+online"
	@echo "make host-test  host unit tests of lib/ (ASan + UBSan)"
	@echo "make board-test board description over real DTBs vs dtc; SD-card images"
	@echo "make model      spin model check of hotplug vs RCU (docs/model.md)"
	@echo "make torture    RCU + hotplug tortures on -smp 4 and 8 until 10k cycles + 100k GPs"
	@echo "make fuzz       libFuzzer on the device-tree code (FUZZ_TIME=600 s, docs/fuzzing.md)"
	@echo "make sdcard BOARD=rpi3|rpi4|rpi5 [APPEND=\"ARGS\"]"
	@echo "                SD-card image build/sdcard-BOARD.img (docs/boards.md)"
	@echo "make DEBUG=1    build with -Og for stepping in GDB"
	@echo "make gdb        gdb-multiarch on a QEMU started with ./qemu.sh --gdb"
	@echo "                (GDB_PORT=N for ./qemu.sh --gdb --gdb-port N)"

# Tools: installed through apt when missing (tools/setup.sh says what).
$(B)/.setup-ok: tools/setup.sh
	@mkdir -p $(B)
	tools/setup.sh --quiet
	@touch $@
setup: $(B)/.setup-ok

# The compiler's own freestanding headers (stddef.h, stdint.h, stdarg.h),
# and libfdt's headers from Debian's libfdt-dev: never committed here.
$(B)/gcc-include: | $(B)/.setup-ok
	ln -sfn "$$($(CC) -print-file-name=include)" $@
$(B)/include/libfdt.h: | $(B)/.setup-ok
	@mkdir -p $(B)/include
	cp $(LIBFDT_HDRS) $(B)/include/

HEADERS := $(shell find include arch kernel -name '*.h')
GENERATED := $(B)/include/libfdt.h $(B)/gcc-include

$(B)/.opt: FORCE
	@mkdir -p $(B)
	@echo '$(OPT)' | cmp -s - $@ || echo '$(OPT)' > $@

$(B)/%.o: %.c $(HEADERS) Makefile $(B)/.opt | $(GENERATED)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -c $< -o $@

# Runs with the MMU off: Device memory faults on unaligned accesses.
$(B)/arch/arm64/early_mmu.o: CFLAGS += -mstrict-align -fno-stack-protector
# It changes the canary: its own frames must not check it.
$(B)/kernel/stackprotector.o: CFLAGS += -fno-stack-protector

$(B)/%.o: %.S $(HEADERS) Makefile | $(GENERATED)
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(ASFLAGS) -c $< -o $@

# Two link passes: the symbol table of pass 1 is linked into pass 2.
# Text comes first and the table lives after it, so no text symbol moves;
# the check below proves it by regenerating the table from the result.
$(B)/kallsyms0.S:
	@mkdir -p $(B)
	echo | tools/kallsyms.py > $@
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

# The demo: 4 CPUs under the rqdepth governor, the phased workload with a
# status line each second (~25 s), then the shell.
run: $(B)/Image
	./qemu.sh --smp 4 --append "policy=rqdepth demo"

test: $(B)/Image
	python3 tests/run.py

# GICv3 at scale: 64 CPUs (boot, SMP and hotplug suites) and 256 CPUs (boot,
# hotplug cycles from the shell). Minutes per boot under TCG.
test-scale: $(B)/Image
	python3 tests/run.py --scale --jobs 1

# One boot per configuration, each measuring all four designs side by side.
bench: $(B)/Image
	python3 tools/bench.py

bench-linux: $(B)/Image
	python3 tools/bench_linux.py

# One boot runs the phased workload under each governor policy (about a
# minute), prints the table and the trace; the tool draws build/power.png.
POWER_SCALE ?= 100
power: $(B)/Image
	./qemu.sh --smp 4 --timeout 600 \
		--append "power=all power_scale=$(POWER_SCALE) hz=250 poweroff" \
		> $(B)/power.log 2>&1 || { tail -20 $(B)/power.log; exit 1; }
	@grep -E '^\[ *[0-9.]+\] power: ' $(B)/power.log | sed 's/^\[[^]]*\] //'
	tools/power_plot.py $(B)/power.log $(B)

# Attach to `./qemu.sh --gdb [--gdb-port N]` (another terminal), helpers
# loaded: make gdb [GDB_PORT=N].
gdb: $(B)/kernel.elf
	gdb-multiarch -q $(B)/kernel.elf -ex 'target remote :$(GDB_PORT)' \
		-ex 'source tools/gdb/hotplug.py'

host-test: $(B)/.setup-ok
	$(MAKE) -C tests/host

# kernel/board.c built natively over Pi 3/4/5, RK3399 and A64 trees, each
# fact held against dtc's reading; the SD-card images read back.
board-test: $(B)/.setup-ok
	$(MAKE) -s -C tests/boards

# A Raspberry Pi SD card: kernel, config.txt, cmdline.txt (APPEND) and the
# board's device tree; the firmware files are added by hand (docs/boards.md).
sdcard: $(B)/Image
	@test -n "$(BOARD)" || { echo "make sdcard BOARD=rpi3|rpi4|rpi5"; exit 2; }
	tools/mksdcard.sh "$(BOARD)" $(B)/Image $(B)/sdcard-$(BOARD).img "$(APPEND)"

# Promela model of cpu_down()/cpu_up() against RCU, checked with spin.
# Long RCU + hotplug tortures (docs/reliability.md): TORTURE_GOAL per boot,
# at most TORTURE_SECS.
torture: $(B)/Image
	tools/torture.sh

model: $(B)/.setup-ok
	tools/model/check.sh

fuzz: $(B)/.setup-ok
	$(MAKE) -C tests/fuzz long

clean:
	rm -rf $(B)
