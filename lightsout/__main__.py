"""``python -m lightsout``: the command line."""
import sys

from lightsout.cli import main

if __name__ == "__main__":
    sys.exit(main())
