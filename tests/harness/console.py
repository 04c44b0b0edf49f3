"""The console: its lines as the checks read them, and the driver that types a
boot's shell script (tests/matrix.py Steps) into the kernel's monitor shell
and waits for each prompt."""

import codecs
import os
import re

# ---- console lines ---------------------------------------------------------------

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ")


def strip_timestamp(line):
    """Removes the printk timestamp `[    0.012345] ` and any CR."""
    return TIMESTAMP.sub("", line.replace("\r", ""), count=1)


def shown(send):
    """A step's text as a check names it: 'help\\r', '0123456789...' (201 long)."""
    text = repr(send if isinstance(send, str) else send.decode("latin-1"))
    return text if len(text) <= 30 else f"{text[:20]}...' ({len(send)} long)"


# ---- typing into the console ------------------------------------------------------
#
# A boot's script types into the monitor shell through QEMU's stdin, a pipe
# (whatever the harness's own stdin is: /dev/null under CI). qemu.sh's
# `-serial mon:stdio` puts QEMU's mux between stdin and the UART: QEMU
# reads the pipe only as fast as the mux buffer and the UART's receive FIFO
# drain, so no byte is lost before the kernel has it. The kernel's receive
# ring fills, though, if its shell thread falls behind, so the text goes
# CHUNK bytes at a time, each chunk once the shell has echoed the previous
# one (no fixed sleeps). Bytes it does not echo (control bytes; a line past
# its limit) go at PACE instead: a chunk without printable bytes, or the
# rest of a step once an echo failed to come within the echo wait.
#
# Ctrl-A is the mux's escape key (Ctrl-A X quits QEMU, Ctrl-A C opens the
# monitor): a Ctrl-A in a script is typed as Ctrl-A Ctrl-A, which the mux
# passes on as one Ctrl-A, so a script never reaches the monitor.

CHUNK = 8            # bytes typed at once: well below the UART's receive FIFO
ECHO_WAIT = 1.0      # seconds to wait for a chunk's echo before typing blind
PACE = 0.02          # seconds between chunks typed blind
CTRL_A = b"\x01"


def echoed(chars, text, start):
    """True when chars appear in text[start:] in order; other console output
    may come between them."""
    rest = iter(text[start:])
    return all(c in rest for c in chars)


class Script:
    """Plays a boot's Steps on QEMU's stdin as its output comes in: give it
    the output (output()) and call advance() whenever something came or its
    deadline passed."""

    def __init__(self, steps, log, echo_wait=ECHO_WAIT):
        self.steps = steps
        self.log = log
        self.echo_wait = echo_wait
        self.stdin = None           # QEMU's stdin (a file descriptor), once it runs
        self.text = ""              # the console output so far, CRs removed
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.matches = []           # (start, end) in text of each step's wait match
        self.failure = None         # why the script stopped early
        self.deadline = None        # for the wait of the step being waited for
        self.typing = b""           # what the current step has yet to type
        self.echo = None            # (chars, from where in text) of the chunk typed last
        self.next_chunk = 0.0       # when to type the next chunk without the echo
        self.blind = False          # an echo did not come: the step types on at PACE

    def output(self, data):
        self.text += self.decoder.decode(data).replace("\r", "")

    def reply(self, index):
        """What the console printed after step index's match, up to the next
        step's match (the next prompt) or the end of the output."""
        end = self.matches[index + 1][0] if index + 1 < len(self.matches) else len(self.text)
        return self.text[self.matches[index][1]:end]

    def note(self, text):
        self.log.write(f"run.py: {text}\n")

    def advance(self, now):
        """Does what is due; returns when to be called again at the latest
        (None: only when output comes)."""
        while self.failure is None:
            if self.echo and echoed(self.echo[0], self.text, self.echo[1]):
                self.echo, self.next_chunk = None, now
            if self.typing or self.echo:
                if now < self.next_chunk:
                    return self.next_chunk
                if self.echo:
                    self.note(f"no echo of {self.echo[0]!r} within {self.echo_wait} s:"
                              " typing the rest of the step without waiting for it")
                    self.echo, self.blind = None, True
                if self.typing:
                    self.type_chunk(now)
                continue
            index = len(self.matches)
            if index == len(self.steps):
                return None
            step = self.steps[index]
            if self.deadline is None:
                self.deadline = now + step.timeout
            start = self.matches[-1][1] if self.matches else 0
            found = re.compile(step.wait).search(self.text, start)
            if found:
                self.matches.append(found.span())
                self.deadline, self.blind = None, False
                self.typing = step.send.encode() if isinstance(step.send, str) else step.send
                if self.typing:
                    self.note(f"step {index + 1}: typing {shown(step.send)}")
            elif now >= self.deadline:
                self.failure = f"not seen within {step.timeout} s"
                self.note(f"step {index + 1}: /{step.wait}/ {self.failure}: stopping QEMU")
            else:
                return self.deadline
        return None

    def type_chunk(self, now):
        chunk, self.typing = self.typing[:CHUNK], self.typing[CHUNK:]
        try:
            os.write(self.stdin, chunk.replace(CTRL_A, CTRL_A * 2))
        except OSError:             # QEMU is gone: the next wait fails
            self.typing = b""
            return
        printable = "".join(chr(b) for b in chunk if 0x20 <= b < 0x7f)
        if printable and not self.blind:
            self.echo = (printable, len(self.text))
            self.next_chunk = now + self.echo_wait
        else:
            self.next_chunk = now + PACE
