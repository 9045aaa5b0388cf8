"""The ``npspore`` command line: read, check and manage generated kernels."""
import argparse
import sys

from . import __version__


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="npspore", description=__doc__)
    parser.add_argument("--version", action="version", version=f"npspore {__version__}")
    parser.parse_args(argv)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
