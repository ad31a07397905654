"""A running match's process side: its socket (consumer), the server clocks' runner and the
computer player's runner (the services and selectors are in game/services and game/selectors)."""
