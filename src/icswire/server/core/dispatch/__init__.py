"""Commands: how a line names one, the registry of commands and hooks (and where each
command runs in a cluster), the context a handler is given, the one dispatcher of a line
(``run``), numbers typed by users, and paging long replies."""
