"""The ``icswire bot`` package (its session and command come from the botplay branch)."""
