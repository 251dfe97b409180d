"""``python -m icswire``: the same as the ``icswire`` command."""

from icswire.cli import main

main()
