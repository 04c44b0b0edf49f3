#!/bin/bash
# make torture: long RCU + hotplug tortures on virt -smp 4 and -smp 8, one
# boot each, until their targets are met: TORTURE_GOAL hotplug
# cycles and grace periods (default 10000,100000), at most TORTURE_SECS
# seconds per boot (default 3600; hz=1000 so that grace periods, which end
# at ticks, come fast), then the totals over all boots.
# Logs: build/torture-smpN.log. Exit 1 if a boot did not end in SUCCESS or
# did not reach the goal in time.
set -u
cd "$(dirname "$0")/.."
secs=${TORTURE_SECS:-3600}
goal=${TORTURE_GOAL:-10000,100000}
status=0
tot_gp=0 tot_on=0 tot_off=0 tot_reads=0
for smp in 4 8; do
  log=build/torture-smp$smp.log
  gic=2; [ "$smp" -gt 8 ] && gic=3
  echo "torture: -smp $smp until $goal (cycles,grace periods), at most $secs s (log: $log)"
  ./qemu.sh --smp "$smp" --gic "$gic" --timeout $((secs + 120)) \
    --append "torture=$secs torture.goal=$goal hz=1000 poweroff" > "$log" 2>&1
  grep -E "rcu-torture: (goal|rtc|Reader Pipe|Free-Block|onoff|---)" "$log" |
    sed 's/^\[[^]]*\] */  /'
  if ! grep -q "End of test: SUCCESS" "$log"; then
    echo "torture: -smp $smp did not end in SUCCESS"; status=1
    tail -n 30 "$log"
    continue
  fi
  if ! grep -q "rcu-torture: goal .* met after" "$log"; then
    echo "torture: -smp $smp did not reach $goal (cycles,grace periods)" \
      "in $secs s"; status=1
  fi
  gp=$(sed -n 's/.*grace periods \([0-9]*\).*/\1/p' "$log" | tail -1)
  reads=$(sed -n 's/.*reads \([0-9]*\), grace.*/\1/p' "$log" | tail -1)
  on=$(sed -n 's/.*onOK\/onTry \([0-9]*\)\/.*/\1/p' "$log" | tail -1)
  off=$(sed -n 's/.*offOK\/offTry \([0-9]*\)\/.*/\1/p' "$log" | tail -1)
  tot_gp=$((tot_gp + gp)) tot_reads=$((tot_reads + reads))
  tot_on=$((tot_on + on)) tot_off=$((tot_off + off))
done
echo "torture: totals: $tot_gp grace periods, $tot_off downs + $tot_on ups" \
  "(hotplug cycles: $(( tot_on < tot_off ? tot_on : tot_off ))), $tot_reads reads," \
  "$([ $status = 0 ] && echo 'no errors' || echo 'FAILURES')"
exit $status
