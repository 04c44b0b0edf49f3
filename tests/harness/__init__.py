"""The test harness shared by tests/run.py and the tools that print KTAP.

    ktap.py      Check (one counted result), the KTAP parser, a KTAP writer
    console.py   console lines, the driver that types a boot's shell Steps
    qemu.py      the qemu.sh command line; running it with a timeout
    dtb.py       device trees made for a boot (shim input, chosen CPUs)
    boot.py      what a boot of tests/matrix.py must show, as Checks
    host.py      the host-side checks that make test runs after the boots
    report.py    one line per boot or check, and the log lines of a failure
    selftest.py  tests of the parser, the writer and the console driver

A tool outside tests/ puts tests/ on sys.path and imports from here, e.g.
`from harness.ktap import KtapWriter`.
"""
