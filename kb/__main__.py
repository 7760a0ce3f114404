import sys

import kb  # noqa: F401 - sets the offline environment before heavy imports
from kb.cli import main

sys.exit(main())
