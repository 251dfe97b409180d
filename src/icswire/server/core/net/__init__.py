"""Connections: the asyncio Protocol of each client (telnet, timeseal, block framing), the
listener that accepts them, and the limits on connections, addresses and users."""
