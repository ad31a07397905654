"""The real-time layer: sockets' life, the hub's fan-out, the channel layer, the outbox, the
process half of presence and the wire protocol. It knows matches only as ids and versions."""
