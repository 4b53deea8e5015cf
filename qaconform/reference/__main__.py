"""``python -m qaconform.reference``: start the reference server."""

import sys

from .cli import main

sys.exit(main())
