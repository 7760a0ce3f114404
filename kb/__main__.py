import sys

try:
    import kb  # noqa: F401 - sets the offline environment before heavy imports
    from kb.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command starts: no traceback, nothing started yet
    sys.exit(130)

sys.exit(main())
