"""The server's own computer opponents (``icswire serve --computer ENGINE``): chess engines
that play on the server as accounts on its computer list, run in its process by the bot
(:mod:`icswire.bot`).

:mod:`~icswire.computers.engines` reads ``--computer`` (the engines it knows, their levels,
where they are installed); :mod:`~icswire.computers.accounts` makes their accounts ready in
the server's store; :mod:`~icswire.computers.house` runs their bots beside the server
(:class:`~icswire.computers.house.House`), started once it listens and stopped before it
stops. This package sits above both the server and the bot: neither imports it.
"""
