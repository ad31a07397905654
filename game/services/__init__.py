"""Writes: every change to the stored game goes through a function here (`<entity>_<action>`)."""
