"""Reads of the site's own pages: the rules document, the tutorial, practice and the free table."""
