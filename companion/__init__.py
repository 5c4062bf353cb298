"""Bohnanza table companion: rules referee, dice scorer, card vision and tablet page."""

__version__ = "0.1.0"
