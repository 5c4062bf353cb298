"""Trackers: the one place where what the hardware reports becomes events for the games.

They know no web framework and no storage: each is given the few operations it needs
on the table's games (a small protocol), and the web app wires hardware, trackers and
the page together.
"""
