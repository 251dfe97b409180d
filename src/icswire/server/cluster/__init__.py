"""Several ``icswire serve`` processes as one chess server, on NATS (docs/cluster.md)."""
