"""The lobby: its socket, its wire messages and quick pairing's clock."""
