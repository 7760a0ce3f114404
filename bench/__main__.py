import sys

import kb  # noqa: F401 - sets the offline environment before heavy imports
from bench.cli import main

sys.exit(main())
