import sys

import kb  # noqa: F401 - sets the offline environment before heavy imports
from agent.cli import main

sys.exit(main())
