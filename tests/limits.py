"""Resource limits the tests put on a process: every such limit goes through here (tests/test_test_settings.py checks).

A process under a limit writes no bytecode. Under a file size limit CPython before 3.12.8 and 3.13.1 (gh-126606)
keeps a .pyc cut short at the limit, and every Python the tests start shares one bytecode folder
(tests/conftest.py): one such file and each later process importing that module fails with "marshal data too
short". The limited process still reads the bytecode already there, so it starts as fast as any other.
"""

from __future__ import annotations

import resource
import signal
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager


def _set_file_size_limit(size: int) -> None:
    # Ignored, SIGXFSZ would kill the process at the limit instead of failing the write with EFBIG; exec keeps it.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def file_size_limited_child(env: Mapping[str, str], size: int) -> tuple[dict[str, str], Callable[[], None]]:
    """The environment and preexec_fn of a child process whose files may not grow past `size` bytes: a write
    past it fails with EFBIG, and the child writes no bytecode."""
    return {**env, "PYTHONDONTWRITEBYTECODE": "1"}, lambda: _set_file_size_limit(size)


@contextmanager
def file_size_limit(size: int) -> Iterator[None]:
    """This process's files may not grow past `size` bytes inside the block (EFBIG, not a signal), and what it
    imports there writes no bytecode."""
    old_handler = signal.getsignal(signal.SIGXFSZ)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    dont_write = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    _set_file_size_limit(size)
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old_handler)
        sys.dont_write_bytecode = dont_write
