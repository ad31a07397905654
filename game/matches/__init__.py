"""A match, from its creation to its result: services/ (the only writes), selectors/ (the reads), its
socket (consumer), the server clocks' runner, the computer player's runner and the match pages (views/)."""
