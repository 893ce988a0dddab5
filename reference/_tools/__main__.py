"""``python -m reference._tools [--check | --write]``: see :mod:`reference._tools`."""

import sys

from . import main

sys.exit(main())
