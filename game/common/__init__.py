"""What every domain of the server uses and none owns: the game clock (more to move here)."""
