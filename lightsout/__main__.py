"""``python -m lightsout`` and the ``lightsout`` command: the command line, once the package is known to be this one.

Another distribution (python-lightsout) installs a ``lightsout`` package too; then
``lightsout`` may be its package, and the command says so in one line (exit 2)
before importing anything that needs this one whole.
"""
import sys

from lightsout._import_help import clash_message


def console() -> int:
    """The ``lightsout`` command: :func:`lightsout.cli.main`, after the check.

    Example:
        >>> console.__name__
        'console'
    """
    problem = clash_message()
    if problem is not None:
        if sys.stderr is not None:
            print(f"lightsout: {problem}", file=sys.stderr)
        return 2
    from lightsout.cli import main

    return main()


if __name__ == "__main__":
    sys.exit(console())
