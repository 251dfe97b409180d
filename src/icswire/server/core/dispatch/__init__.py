"""Commands: how a line names one, the registry of commands and hooks, the context a
handler is given, numbers typed by users, and paging long replies."""
