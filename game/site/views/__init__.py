"""The site's own pages: home, health, rules, ratings help, the tutorial, practice, the JS catalogue."""
