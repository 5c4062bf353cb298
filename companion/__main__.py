"""``python -m companion`` runs the command line."""

import sys

from companion.cli import main

sys.exit(main())
