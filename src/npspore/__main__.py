"""``python -m npspore``: the same as the ``npspore`` command."""
import sys

from .cli import main

sys.exit(main())
