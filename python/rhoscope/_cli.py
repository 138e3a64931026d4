"""The ``rhoscope`` console script: the crate's command line, run in this process."""

from __future__ import annotations

# `_signal` is the C module, not `signal`: that one imports enum, a third of the command's
# start-up.
import _signal  # type: ignore[import-not-found]  # (typeshed has no stub for it)
import sys


def main() -> None:
    """Runs ``rhoscope`` with ``sys.argv`` and exits with its code."""
    from . import _rhoscope

    # As the binary: Ctrl-C ends the command (the explorer installs its own handlers).
    _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
    argv = ["rhoscope", *sys.argv[1:]]
    sys.stdout.flush()
    code = _rhoscope.run_cli(argv)
    sys.exit(code)


if __name__ == "__main__":
    main()
