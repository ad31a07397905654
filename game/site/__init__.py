"""The pages around the game: home, rules, the tutorial, practice and the JS catalogue."""
